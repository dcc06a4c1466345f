// Two runs on one thread from two browsing contexts (this page and a same-origin iframe, as two tabs
// of the app): the origin's Web Locks keep them apart, the IndexedDB thread stays one chain of
// steps. And a call a worker finished before an abort is kept and never runs again.
import { afterAll, describe, expect, it } from 'vitest';
import * as tabModule from '../../test/agent-tab';
import { isToolMessage } from '../messages/predicates';
import type { Message, ToolMessage } from '../messages/types';
import { scriptedModel } from '../models/scripted-model';
import type { ChatModel, ModelRequest } from '../models/types';
import { createWorkerPool } from '../pool/worker-pool';
import { openIndexedDBCheckpointer } from '../store/checkpointer';
import { createAgent } from './agent';
import type { AgentEvent, AgentResult } from './types';

type TabModule = typeof tabModule;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A same-origin iframe that loads the tab module itself: its own realm, its own copy of the agent's code. */
async function secondTab(): Promise<TabModule> {
  const frame = document.createElement('iframe');
  frame.srcdoc = '<!doctype html><title>second tab</title>';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const url = new URL('../../test/agent-tab.ts', import.meta.url).href;
  // Evaluated by the frame: the module is loaded into the frame's own module map.
  const evaluate = (frame.contentWindow as unknown as { eval(code: string): Promise<TabModule> }).eval;
  return evaluate(`import(${JSON.stringify(url)})`);
}

const dbs: string[] = [];
afterAll(() => {
  for (const db of dbs) indexedDB.deleteDatabase(db);
});

describe('two tabs, one thread', () => {
  it('runs take turns across browsing contexts; the thread is one chain, each run starting from the last whole', async () => {
    const db = `moat-tabs-${crypto.randomUUID()}`;
    dbs.push(db);
    const other = await secondTab();
    // Not this page's module instance: only the origin's locks can keep the two apart.
    expect(other.lockThread).not.toBe(tabModule.lockThread);
    const log: string[] = [];
    const gate = deferred();
    const here = tabModule.tabAgent('here', db, (line) => log.push(line), gate.promise);
    const there = other.tabAgent('there', db, (line) => log.push(line), gate.promise);

    const first = here.run('first', 'shared');
    await expect.poll(() => log.length).toBe(1);
    const second = there.run('second', 'shared');
    // The second tab waits in the origin's queue for this thread's lock.
    await expect
      .poll(async () => (await navigator.locks.query()).pending?.map((l) => l.name))
      .toContain('moat:thread:shared');
    // ...and fails at once when asked to.
    await expect(there.run('third', 'shared', 'fail')).rejects.toMatch(/^ThreadBusyError: Thread 'shared' is busy/);
    gate.resolve();
    const [one, two] = (await Promise.all([first, second])).map((json) => JSON.parse(json) as AgentResult);
    expect(log).toEqual([
      "here answers 'first' seeing 1",
      "here answers 'first' seeing 3",
      "there answers 'second' seeing 5",
      "there answers 'second' seeing 7",
    ]);
    expect([one?.text, two?.text]).toEqual(['here is done with first', 'there is done with second']);

    const checkpointer = openIndexedDBCheckpointer(db);
    const steps = (await checkpointer.list('shared', { limit: 100 })).reverse();
    expect(steps.map((s) => [s.id, s.parentId])).toEqual([
      ['step-00000001', undefined],
      ['step-00000002', 'step-00000001'],
      ['step-00000003', 'step-00000002'],
      ['step-00000004', 'step-00000003'],
    ]);
    expect(steps.at(-1)?.messages.map((m) => m.role)).toEqual([
      ...['user', 'assistant', 'tool', 'assistant'],
      ...['user', 'assistant', 'tool', 'assistant'],
    ]);
    checkpointer.close();
    here.close();
    there.close();
  });
});

describe('eager tools in workers across an abort', () => {
  const results = (messages: readonly Message[]) =>
    messages.filter((m): m is ToolMessage => isToolMessage(m)).map((m) => [m.name, m.status, m.content]);

  /** Adds unless the thread holds a result; then answers with it. With `stall`, its first answer stalls after its call. */
  function adder(stall: boolean): ChatModel {
    const inner = scriptedModel((messages) => {
      const done = results(messages);
      if (done.length > 0) return { text: `It is ${done[0]?.[2]}.` };
      return { text: 'Adding.', toolCalls: [{ name: 'add', args: { a: 40, b: 2 } }] };
    });
    let calls = 0;
    return {
      provider: 'test',
      modelId: 'stalling',
      stream(request: ModelRequest) {
        const parts = inner.stream(request);
        const stalls = stall && ++calls === 1;
        return {
          async *[Symbol.asyncIterator]() {
            for await (const part of parts) {
              if (part.type === 'finish' && stalls)
                await new Promise((_, reject) =>
                  request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true }),
                );
              yield part;
            }
          },
          message: () => parts.message(),
        };
      },
    };
  }

  it('a call the worker finished before the abort is in the IndexedDB thread; resume and a reload do not run it again', async () => {
    const db = `moat-abort-${crypto.randomUUID()}`;
    dbs.push(db);
    const pool = createWorkerPool({
      worker: () =>
        new Worker(new URL('../../test/workers/agent-tools.worker.ts', import.meta.url), { type: 'module' }),
      size: 1,
    });
    const checkpointer = openIndexedDBCheckpointer(db);
    const started: string[] = [];
    const agent = createAgent({ model: adder(true), pool, checkpointer });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const e of agent.stream('What is 40 + 2?', { threadId: 'x', signal: controller.signal })) {
      events.push(e);
      if (e.type === 'tool-started') started.push(e.toolCallId);
      if (e.type === 'tool-finished') controller.abort(new Error('stop'));
    }
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'aborted' });
    expect(results((await checkpointer.get('x'))?.messages ?? [])).toEqual([['add', 'success', '42']]);

    // A reload: a new checkpointer on the same database, a new agent; it continues from the result.
    checkpointer.close();
    const reloaded = openIndexedDBCheckpointer(db);
    const again = createAgent({ model: adder(false), pool, checkpointer: reloaded });
    for await (const e of again.stream([], { threadId: 'x' })) {
      if (e.type === 'tool-started') started.push(e.toolCallId);
      if (e.type === 'finish') expect(e).toMatchObject({ stopReason: 'end', text: 'It is 42.' });
    }
    expect(started).toHaveLength(1);
    reloaded.close();
    await pool.close();
  });
});
