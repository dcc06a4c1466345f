// Threads that never lose or repeat work (issue #30, item 3), in Node: two runs on one thread take
// turns (the in-realm lock: Node has no Web Locks; agent-tabs.browser.test.ts takes the Web Locks
// path across two browsing contexts), and a call that ran before an abort is kept, never run again.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { defineTool } from '../../worker/define-tool';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error';
import { ThreadBusyError } from '../errors/thread-busy-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import { isToolMessage } from '../messages/predicates';
import type { Message, ToolMessage } from '../messages/types';
import { type ScriptedTurn, scriptedModel } from '../models/scripted-model';
import type { ChatModel, ModelRequest } from '../models/types';
import { type Checkpointer, createMemoryCheckpointer } from '../store/checkpointer';
import { createAgent } from './agent';
import { threadMemory } from './thread';
import type { AgentEvent, AgentOptions } from './types';

const results = (messages: readonly Message[]) =>
  messages.filter((m): m is ToolMessage => isToolMessage(m)).map((m) => [m.name, m.status, m.content]);
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

  it('a new thread is held from its start: a run on its id, once another tab could see it, waits', async () => {
    const log: string[] = [];
    const gate = deferred();
    const checkpointer = createMemoryCheckpointer();
    // Each run calls add once, then answers; the first run's answer waits for the gate.
    const model = scriptedModel(async (messages) => {
      const asked = lastUser(messages) as string;
      log.push(`model sees ${messages.length} messages for '${asked}'`);
      if (messages.at(-1)?.role !== 'tool') return { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] };
      if (asked === 'first') await gate.promise;
      return { text: `done with ${asked}` };
    });
    const first = agentFor(model, checkpointer).run('first'); // no threadId: a new thread
    // Its first step is saved: the thread is listed, as another tab would find it.
    await expect.poll(async () => (await checkpointer.threads()).length).toBe(1);
    const threadId = (await checkpointer.threads())[0]?.threadId as string;
    const second = agentFor(model, checkpointer).run('second', { threadId });
    gate.resolve();
    const [one, two] = await Promise.all([first, second]);
    expect(one.threadId).toBe(threadId);
    expect(log).toEqual([
      "model sees 1 messages for 'first'",
      "model sees 3 messages for 'first'",
      "model sees 5 messages for 'second'",
      "model sees 7 messages for 'second'",
    ]);
    expect(two.text).toBe('done with second');
    expect((await chain(checkpointer, threadId)).map((c) => c.metadata?.seq)).toEqual([1, 2, 3, 4]);
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

describe('eager tools across an abort', () => {
  /** Resolves when the signal aborts: a model that wrote its calls and then stalls. */
  const untilAborted = (signal: AbortSignal | undefined) =>
    new Promise<never>((_, reject) => {
      signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
    });

  /**
   * A scripted model whose turn stalls after its last call (before its end) while `stall` says
   * so: the calls have started eagerly, the answer never ends unless aborted.
   */
  function stalling(respond: (messages: readonly Message[]) => ScriptedTurn, stall: () => boolean): ChatModel {
    const inner = scriptedModel(respond);
    return {
      provider: 'test',
      modelId: 'stalling',
      stream(request: ModelRequest) {
        const parts = inner.stream(request);
        const stalls = stall();
        return {
          async *[Symbol.asyncIterator]() {
            for await (const part of parts) {
              if (part.type === 'finish' && stalls) await untilAborted(request.signal);
              yield part;
            }
          },
          message: () => parts.message(),
        };
      },
    };
  }

  /** Charges a card: what must never happen twice. */
  function payments() {
    const charges: string[] = [];
    const started: string[] = [];
    const tools = [
      defineTool({
        name: 'charge',
        description: 'Charge the card.',
        input: z.object({ cents: z.number() }),
        run: ({ cents }, { toolCallId }) => {
          charges.push(toolCallId);
          return `charged ${cents} cents`;
        },
      }),
      defineTool({
        name: 'ship',
        description: 'Ship the order (slow; stops when told).',
        input: z.object({}),
        run: (_args, { toolCallId, signal }) => {
          started.push(toolCallId);
          return untilAborted(signal);
        },
      }),
    ];
    return { charges, started, invoker: new ToolInvoker({ inlineTools: tools }) };
  }

  /** Calls the tools the person asked for unless the thread already holds their results; then says so. */
  const shopper = (names: string[]) => (messages: readonly Message[]) => {
    const done = results(messages);
    if (done.length > 0) return { text: `Done: ${done.map((r) => r[2]).join('; ')}` };
    return {
      text: 'On it.',
      toolCalls: names.map((name) => ({ name, args: name === 'charge' ? { cents: 500 } : {} })),
    };
  };

  it('a call that finished before the abort is saved with its result; resume and retry never run it again', async () => {
    const { charges, invoker } = payments();
    const checkpointer = createMemoryCheckpointer();
    let first = true;
    const model = stalling(shopper(['charge']), () => {
      const stalls = first;
      first = false;
      return stalls;
    });
    const agent = createAgent({ model, invoker, checkpointer });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const e of agent.stream('pay for my order', { threadId: 'pay', signal: controller.signal })) {
      events.push(e);
      if (e.type === 'tool-finished') controller.abort(new Error('the person pressed stop'));
    }
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'aborted' });
    expect(charges).toHaveLength(1);
    const saved = await checkpointer.get('pay');
    expect(saved?.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(saved?.messages[1]).toMatchObject({ content: 'On it.', toolCalls: [{ id: charges[0], name: 'charge' }] });
    expect(results(saved?.messages ?? [])).toEqual([['charge', 'success', 'charged 500 cents']]);

    // Resume: continue from the saved results, no new message.
    const resumed = await agent.run([], { threadId: 'pay' });
    expect(resumed.text).toBe('Done: charged 500 cents');
    // Retry: the same request again, as a person would.
    const retried = await agent.run('pay for my order', { threadId: 'pay' });
    expect(retried.text).toBe('Done: charged 500 cents');
    expect(charges).toHaveLength(1);
  });

  it('a call cut off by the abort is reported as interrupted, not run again; one never started is left out', async () => {
    const { charges, started, invoker } = payments();
    const checkpointer = createMemoryCheckpointer();
    let first = true;
    const model = stalling(shopper(['charge', 'ship']), () => {
      const stalls = first;
      first = false;
      return stalls;
    });
    const agent = createAgent({ model, invoker, checkpointer, approve: (call) => call.name !== 'ship' || 'ask' });
    const controller = new AbortController();
    for await (const e of agent.stream('pay and ship', { threadId: 'ps', signal: controller.signal }))
      if (e.type === 'tool-finished') controller.abort(new Error('stop'));
    // ship waits for a person: it never started, and is not kept.
    expect(started).toEqual([]);
    expect(results((await checkpointer.get('ps'))?.messages ?? [])).toEqual([
      ['charge', 'success', 'charged 500 cents'],
    ]);

    // This time both start; ship is cut off mid-way.
    const agent2 = createAgent({ model: stalling(shopper(['charge', 'ship']), () => true), invoker, checkpointer });
    const controller2 = new AbortController();
    const seen = new Set<string>();
    for await (const e of agent2.stream('pay and ship', { threadId: 'ps2', signal: controller2.signal })) {
      if (e.type === 'tool-finished' || e.type === 'tool-started') seen.add(e.type);
      if (seen.size === 2 && started.length === 1) controller2.abort(new Error('stop'));
    }
    const saved = (await checkpointer.get('ps2'))?.messages ?? [];
    expect(results(saved).map((r) => [r[0], r[1]])).toEqual([
      ['charge', 'success'],
      ['ship', 'error'],
    ]);
    expect(results(saved)[1]?.[2]).toMatch(/interrupted while it ran .* It was not run again/);
    const again = await createAgent({ model: scriptedModel(shopper(['charge', 'ship'])), invoker, checkpointer }).run(
      [],
      { threadId: 'ps2' },
    );
    expect(again.text).toMatch(/^Done: charged 500 cents; Error: the call to ship was interrupted/);
    expect(charges).toHaveLength(2); // one per thread
    expect(started).toHaveLength(1);
  });

  it('nothing is saved when the abort comes before any call started', async () => {
    const { charges, invoker } = payments();
    const checkpointer = createMemoryCheckpointer();
    const agent = createAgent({ model: scriptedModel(shopper(['charge']), { delayMs: 1 }), invoker, checkpointer });
    const controller = new AbortController();
    for await (const e of agent.stream('pay', { threadId: 'n', signal: controller.signal }))
      if (e.type === 'text-delta') controller.abort(new Error('stop'));
    expect(charges).toEqual([]);
    expect(await checkpointer.get('n')).toBeUndefined();
  });

  it('approved calls: one finished before the abort keeps its result, the one cut off is interrupted', async () => {
    const { charges, started, invoker } = payments();
    const checkpointer = createMemoryCheckpointer();
    const agent = createAgent({
      model: scriptedModel(shopper(['charge', 'ship'])),
      invoker,
      checkpointer,
      approve: () => 'ask',
    });
    const asked = await agent.run('pay and ship', { threadId: 'ap' });
    const ids = Object.fromEntries((asked.pendingApprovals ?? []).map((c) => [c.id, true as const]));
    const controller = new AbortController();
    for await (const e of agent.stream({ approvals: ids }, { threadId: 'ap', signal: controller.signal }))
      if (e.type === 'tool-finished') controller.abort(new Error('stop'));
    expect([charges.length, started.length]).toEqual([1, 1]);
    const saved = await checkpointer.get('ap');
    expect(results(saved?.messages ?? [])).toEqual([['charge', 'success', 'charged 500 cents']]);
    expect(saved?.metadata?.running).toEqual([expect.objectContaining({ name: 'ship' })]);
    const after = await agent.run([], { threadId: 'ap' });
    expect(results(after.messages).map((r) => [r[0], r[1]])).toEqual([
      ['charge', 'success'],
      ['ship', 'error'],
    ]);
    expect([charges.length, started.length]).toEqual([1, 1]);
  });
});
