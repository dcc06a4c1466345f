// Saving a long thread in Node: the copy is made in slices, the page running between them. (The
// Checkpointer contract runs in Chromium, memory and IndexedDB: checkpointer.browser.test.ts.)
import { afterEach, describe, expect, it, vi } from 'vitest';
import { aiMessage, toolMessage, userMessage } from '../messages/constructors';
import type { Message } from '../messages/types';
import { type Checkpoint, createMemoryCheckpointer } from './checkpointer';

/** A thread of one turn of `calls` calls: the user's message, the call, the results. */
function wideTurn(calls: number): Message[] {
  const toolCalls = Array.from({ length: calls }, (_, i) => ({ id: `c${i}`, name: 'noop', args: { i } }));
  return [
    userMessage('go'),
    aiMessage({ toolCalls, stopReason: 'tool-calls' }),
    ...toolCalls.map((c) => toolMessage({ toolCallId: c.id, name: 'noop', content: `${c.args.i}` })),
  ];
}

describe('saving a long thread', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('copies its messages in slices, the page running between them, and stores the list as it was when put', async () => {
    // A clock that moves 1 ms at each reading: a slice (25 ms) ends after a few dozen messages.
    let now = 0;
    vi.spyOn(performance, 'now').mockImplementation(() => ++now);
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const messages = wideTurn(1_000);
    const checkpoint: Checkpoint = { id: 's1', threadId: 't', createdAt: 1, messages, state: { n: 1 } };
    const cp = createMemoryCheckpointer();
    try {
      const before = ticks;
      const saving = cp.put('t', checkpoint);
      // The list may change once put has it (the agent's does not; a caller's might).
      messages.push(userMessage('later'));
      await saving;
      // Copied in one task, its 1,002 messages let the page run not once.
      expect(ticks - before).toBeGreaterThan(1);
    } finally {
      ticking = false;
    }
    const stored = await cp.get('t');
    expect(stored?.messages).toHaveLength(1_002);
    expect(stored).toEqual({ ...checkpoint, messages: messages.slice(0, 1_002) });
    cp.close();
  });
});
