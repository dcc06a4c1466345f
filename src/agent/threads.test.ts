// Threads that never lose or repeat work (issue #30, item 3), in Node: two runs on one thread take
// turns (the in-realm lock: Node has no Web Locks; agent-tabs.browser.test.ts takes the Web Locks
// path across two browsing contexts).
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { defineTool } from '../../worker/define-tool';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error';
import { ThreadBusyError } from '../errors/thread-busy-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import type { Message } from '../messages/types';
import { scriptedModel } from '../models/scripted-model';
import type { ChatModel } from '../models/types';
import { type Checkpointer, createMemoryCheckpointer } from '../store/checkpointer';
import { createAgent } from './agent';
import { threadMemory } from './thread';
import type { AgentEvent, AgentOptions } from './types';

const lastUser = (messages: readonly Message[]) => messages.findLast((m) => m.role === 'user')?.content;

function deferred<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

async function collect(iterable: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const e of iterable) events.push(e);
  return events;
}

/** The thread's checkpoints, oldest first, each following the one before (no step written twice). */
async function chain(checkpointer: Checkpointer, threadId: string) {
  const list = (await checkpointer.list(threadId, { limit: 100 })).reverse();
  list.forEach((c, i) => {
    expect(c.parentId).toBe(list[i - 1]?.id);
  });
  return list;
}

describe('two runs on one thread', () => {
  /** A model that, per user message, calls `add` once and then answers; the first run's first call waits for `gate`. */
  function turnTaking(log: string[], gate: Promise<void>) {
    return scriptedModel(async (messages) => {
      const asked = lastUser(messages) as string;
      log.push(`model sees ${messages.length} messages for '${asked}'`);
      if (asked === 'first' && messages.length === 1) await gate;
      if (messages.at(-1)?.role === 'tool') return { text: `done with ${asked}` };
      return { toolCalls: [{ name: 'add', args: { a: asked.length, b: 1 } }] };
    });
  }
  const add = defineTool({
    name: 'add',
    description: 'Add two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => a + b,
  });
  const agentFor = (model: ChatModel, checkpointer: Checkpointer, options: Partial<AgentOptions> = {}) =>
    createAgent({ model, invoker: new ToolInvoker({ inlineTools: [add] }), checkpointer, ...options });

  it('wait their turn: the second starts from the first one whole; no step is written twice', async () => {
    for (const checkpointer of [createMemoryCheckpointer(), undefined]) {
      const log: string[] = [];
      const gate = deferred();
      // Two agents (say, two components of one page) over one checkpointer, or one agent's own memory.
      const a = agentFor(turnTaking(log, gate.promise), checkpointer ?? threadMemory());
      const b = checkpointer ? agentFor(turnTaking(log, gate.promise), checkpointer) : a;
      const first = a.run('first', { threadId: 'shared' });
      await expect.poll(() => log.length).toBe(1);
      const second = b.run('second', { threadId: 'shared' });
      gate.resolve();
      const [one, two] = await Promise.all([first, second]);
      expect(log).toEqual([
        "model sees 1 messages for 'first'",
        "model sees 3 messages for 'first'",
        "model sees 5 messages for 'second'",
        "model sees 7 messages for 'second'",
      ]);
      expect(one).toMatchObject({ stopReason: 'end', text: 'done with first', steps: 2 });
      expect(two).toMatchObject({ stopReason: 'end', text: 'done with second', steps: 2 });
      expect(two.messages.map((m) => m.role)).toEqual([
        ...['user', 'assistant', 'tool', 'assistant'],
        ...['user', 'assistant', 'tool', 'assistant'],
      ]);
      if (checkpointer) expect((await chain(checkpointer, 'shared')).map((c) => c.metadata?.seq)).toEqual([1, 2, 3, 4]);
    }
  });

  it("with ifBusy: 'fail', the second fails at once with ThreadBusyError and changes nothing", async () => {
    const log: string[] = [];
    const gate = deferred();
    const checkpointer = createMemoryCheckpointer();
    const agent = agentFor(turnTaking(log, gate.promise), checkpointer);
    const first = agent.run('first', { threadId: 'f' });
    await expect.poll(() => log.length).toBe(1);
    const events = await collect(agent.stream('second', { threadId: 'f', ifBusy: 'fail' }));
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ type: 'error', error: { name: 'ThreadBusyError', threadId: 'f' } });
    await expect(agent.run('second', { threadId: 'f', ifBusy: 'fail' })).rejects.toBeInstanceOf(ThreadBusyError);
    gate.resolve();
    expect((await first).text).toBe('done with first');
    expect(log).toHaveLength(2);
    expect((await chain(checkpointer, 'f')).at(-1)?.messages).toHaveLength(4);
    // Free again: 'fail' runs.
    expect((await agent.run('second', { threadId: 'f', ifBusy: 'fail' })).text).toBe('done with second');
  });

  it('a run aborted while it waits ends as aborted and does nothing', async () => {
    const log: string[] = [];
    const gate = deferred();
    const checkpointer = createMemoryCheckpointer();
    const agent = agentFor(turnTaking(log, gate.promise), checkpointer);
    const first = agent.run('first', { threadId: 'w' });
    await expect.poll(() => log.length).toBe(1);
    const controller = new AbortController();
    const waiting = agent.run('second', { threadId: 'w', signal: controller.signal });
    controller.abort(new Error('stop waiting'));
    expect(await waiting).toMatchObject({ stopReason: 'aborted', steps: 0, messages: [] });
    gate.resolve();
    await first;
    expect(log.every((line) => line.endsWith("'first'"))).toBe(true);
    expect((await chain(checkpointer, 'w')).at(-1)?.messages.map((m) => m.content)).not.toContain('second');
  });

  it('refuses a bad ifBusy with a TypeError naming it', async () => {
    const agent = agentFor(turnTaking([], Promise.resolve()), createMemoryCheckpointer());
    await expect(agent.run('x', { ifBusy: 'later' as never })).rejects.toThrow(
      /Expected `ifBusy` to be 'wait' or 'fail', got `'later'`/,
    );
  });
});

describe('the checkpoint as a second line of defence', () => {
  it('a step is never overwritten: the second writer of step n gets CheckpointConflictError', async () => {
    const base = { threadId: 't', createdAt: 1, messages: [], state: {} };
    for (const checkpointer of [createMemoryCheckpointer(), threadMemory()]) {
      await checkpointer.put('t', { ...base, id: 'step-1' });
      await checkpointer.put('t', { ...base, id: 'step-2', parentId: 'step-1', createdAt: 2 });
      const again = checkpointer.put('t', { ...base, id: 'step-2', parentId: 'step-1', createdAt: 3 });
      await expect(again).rejects.toBeInstanceOf(CheckpointConflictError);
      await expect(again).rejects.toThrow(/Thread 't' already has checkpoint 'step-2'/);
      expect((await checkpointer.get('t'))?.createdAt).toBe(2);
    }
    // Keeping only the newest, the memory also refuses a step written from an older thread.
    const memory = threadMemory();
    await memory.put('t', { ...base, id: 'step-1' });
    await memory.put('t', { ...base, id: 'step-2', parentId: 'step-1' });
    await memory.put('t', { ...base, id: 'step-3', parentId: 'step-2' });
    await expect(memory.put('t', { ...base, id: 'step-2', parentId: 'step-1' })).rejects.toBeInstanceOf(
      CheckpointConflictError,
    );
    expect((await memory.get('t'))?.id).toBe('step-3');
  });
});
