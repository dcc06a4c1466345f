// What a tool part keeps of a call's progress: the latest delta, and a history bounded by count and size.
import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../agent/types';
import { aiMessage, toolMessage, userMessage } from '../messages/constructors';
import type { Message } from '../messages/types';
import { ChatState } from './chat-state';
import { PROGRESS_LIMITS, type ProgressLimits } from './progress-history';
import type { UIToolPart } from './types';

/** A state with one call running (`c1`), its answer the first message. */
function running(limits?: ProgressLimits) {
  const state = new ChatState('t1', () => {}, limits);
  state.begin(false);
  state.apply({ type: 'tool-started', toolCallId: 'c1', name: 'count', args: {} });
  const part = () => state.snapshot().messages[0]?.parts[0] as UIToolPart;
  const delta = (d: unknown) => state.apply({ type: 'tool-output-delta', toolCallId: 'c1', delta: d });
  return { state, part, delta };
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('a tool part keeps the latest progress and a bounded history', () => {
  it('of thousands of deltas, the last ones by count (100 by default), and how many were let go', () => {
    const { part, delta } = running();
    for (let i = 0; i < 5000; i++) delta({ progress: i });
    const { progress, progressDropped } = part();
    expect(PROGRESS_LIMITS.maxProgressEntries).toBe(100);
    expect(progress).toEqual(range(4900, 5000).map((i) => ({ progress: i })));
    expect(progressDropped).toBe(4900);
  });

  it('the history within its size: many large deltas keep only as many as fit, the latest among them', () => {
    const { part, delta } = running({ maxProgressEntries: 1000, maxProgressChars: 10_000 });
    const line = (i: number) => `${String(i).padStart(4, '0')} ${'x'.repeat(995)}`; // 1,000 characters
    for (let i = 0; i < 2000; i++) delta(line(i));
    const { progress, progressDropped = 0 } = part();
    expect(progress.at(-1)).toBe(line(1999));
    expect(progress).toEqual(range(2000 - progress.length, 2000).map(line));
    expect(progress.join('').length).toBeLessThanOrEqual(10_000);
    // Not cut more than the size asks (each is about 1,000 characters of JSON).
    expect(progress.length).toBeGreaterThanOrEqual(9);
    expect(progressDropped + progress.length).toBe(2000);
  });

  it('a delta larger than the whole size is kept while it is the latest, and let go at the next', () => {
    const { part, delta } = running({ maxProgressEntries: 100, maxProgressChars: 1000 });
    delta('small');
    const huge = 'x'.repeat(5_000_000);
    delta(huge);
    expect(part().progress).toEqual([huge]);
    expect(part().progressDropped).toBe(1);
    delta({ progress: 1 });
    expect(part().progress).toEqual([{ progress: 1 }]);
    expect(part().progressDropped).toBe(2);
  });

  it('a value JSON does not write as it is (bytes, a Map, a BigInt) counts as too big to keep behind the latest', () => {
    const { part, delta } = running();
    delta(new Uint8Array(8));
    expect(part().progress).toEqual([new Uint8Array(8)]);
    delta({ progress: 1 });
    expect(part()).toMatchObject({ progress: [{ progress: 1 }], progressDropped: 1 });
    const map = new Map([['k', 'x'.repeat(1_000_000)]]);
    delta({ progress: 2, map });
    expect(part()).toMatchObject({ progress: [{ progress: 2, map }], progressDropped: 2 });
    delta({ n: 10n });
    expect(part()).toMatchObject({ progress: [{ n: 10n }], progressDropped: 3 });
    delta('after');
    expect(part()).toMatchObject({ progress: ['after'], progressDropped: 4 });
  });

  it('an earlier snapshot keeps its own history while later deltas push the oldest out', () => {
    const { part, delta } = running({ maxProgressEntries: 3, maxProgressChars: Infinity });
    for (const i of range(0, 3)) delta(i);
    const before = part();
    delta(3);
    delta(4);
    expect(part()).toMatchObject({ progress: [2, 3, 4], progressDropped: 2 });
    expect(before.progress).toEqual([0, 1, 2]);
    expect(before.progressDropped).toBeUndefined();
  });

  it('a call run again starts its progress and its count again', () => {
    const { state, part, delta } = running({ maxProgressEntries: 2, maxProgressChars: 100 });
    for (const i of range(0, 5)) delta(i);
    expect(part()).toMatchObject({ progress: [3, 4], progressDropped: 3 });
    state.apply({ type: 'tool-rerun', toolCallId: 'c1', reason: 'its worker was replaced' });
    expect(part().progress).toEqual([]);
    expect(part().progressDropped).toBeUndefined();
    delta('a');
    delta('b');
    delta('c');
    expect(part()).toMatchObject({ progress: ['b', 'c'], progressDropped: 1 });
  });

  it('Infinity keeps every delta', () => {
    const { part, delta } = running({ maxProgressEntries: Infinity, maxProgressChars: Infinity });
    for (const i of range(0, 3000)) delta(i);
    expect(part().progress).toEqual(range(0, 3000));
    expect(part().progressDropped).toBeUndefined();
  });

  it('a saved script with thousands of console lines shows the last ones, as a live one would', () => {
    const logs = range(0, 3000).map((i) => ({ level: 'log', text: `line ${i}` }));
    const messages: Message[] = [
      userMessage('Log a lot'),
      aiMessage({ toolCalls: [{ id: 'code', name: 'run_javascript', args: { code: '…' } }] }),
      toolMessage({ toolCallId: 'code', name: 'run_javascript', content: 'done', artifact: { logs, calls: [] } }),
    ];
    const state = new ChatState('t1', () => {}, { maxProgressEntries: 50, maxProgressChars: Infinity });
    state.load('t1', { messages, pending: [] });
    const code = state.snapshot().messages[1]?.parts[0] as UIToolPart;
    expect(code.progress).toEqual(logs.slice(-50));
    expect(code.progressDropped).toBe(2950);
    // The artifact the tool gave back is untouched.
    expect((code.artifact as { logs: unknown[] }).logs).toHaveLength(3000);
  });
});

describe('the events and the chat around the history', () => {
  it('every delta is a change heard, each snapshot showing it as the latest', () => {
    let heard = 0;
    const state = new ChatState('t1', () => heard++, { maxProgressEntries: 10, maxProgressChars: Infinity });
    state.begin(false);
    state.apply({ type: 'tool-started', toolCallId: 'c1', name: 'count', args: {} });
    state.snapshot();
    heard = 0;
    const part = () => state.snapshot().messages[0]?.parts[0] as UIToolPart;
    const latest: unknown[] = [];
    for (const i of range(0, 1000)) {
      state.apply({ type: 'tool-output-delta', toolCallId: 'c1', delta: i } satisfies AgentEvent);
      latest.push(part().progress.at(-1));
    }
    expect(heard).toBe(1000);
    expect(latest).toEqual(range(0, 1000));
  });
});
