// The seeds' scenarios, with the tools in workers (and one inline tool that needs the DOM).

import { afterAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { testPool } from '../../test/pool-helpers';
import toolsUrl from '../../test/workers/tools.worker.ts?worker&url';
import { defineTool } from '../../worker/define-tool';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { ToolOutputError } from '../errors/tool-output-error';
import { aiMessage, userMessage } from '../messages/constructors';
import type { ToolCall } from '../messages/types';
import { createWorkerPool } from '../pool/worker-pool';
import { openIndexedDBStore } from '../store/indexeddb-store';
import { ToolInvoker } from './tool-invoker';
import type { Interceptor, ToolEvent } from './types';

const storeName = `moat-invoker-${crypto.randomUUID()}`;
const pool = createWorkerPool({
  worker: () => new Worker(new URL('../../test/workers/seed-tools.worker.ts', import.meta.url), { type: 'module' }),
  size: 2,
  store: storeName,
  grants: { remember: { store: [['memory']] }, recall: { store: [['memory']] } },
});
afterAll(async () => {
  await pool.close();
  indexedDB.deleteDatabase(storeName);
});

const pageTitle = defineTool({
  name: 'page_title',
  description: 'Read the page title (needs the DOM: runs inline).',
  input: z.object({}),
  run: () => document.title || '(untitled)',
});

let n = 0;
const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ id: `seed_${++n}`, name, args });

describe('the seed scenarios through the worker pool', () => {
  it('weather tool via a ToolCall', async () => {
    const { messages } = await new ToolInvoker({ pool }).run([call('get_weather', { city: 'Paris' })]);
    expect(messages[0]).toMatchObject({ status: 'success', name: 'get_weather', content: 'It is sunny in Paris.' });
  });

  it('"What is 3 * 12? Also, what is 11 + 49?": two parallel calls, two results', async () => {
    const ai = aiMessage({
      toolCalls: [call('multiply', { a: 3, b: 12 }), call('add', { a: 11, b: 49 })],
      stopReason: 'tool-calls',
    });
    const { messages } = await new ToolInvoker({ pool }).run([
      userMessage('What is 3 * 12? Also, what is 11 + 49?'),
      ai,
    ]);
    expect(messages.map((m) => [m.toolCallId, m.content])).toEqual([
      [ai.toolCalls[0]?.id, '36'],
      [ai.toolCalls[1]?.id, '60'],
    ]);
  });

  it('divide by zero with a callable error formatter', async () => {
    const onError = (error: Error) => `Cannot do that: ${(error.cause as Error).message}. Ask for another divisor.`;
    const { messages } = await new ToolInvoker({ pool, onError }).run([call('divide', { a: 1, b: 0 })]);
    expect(messages[0]).toMatchObject({
      status: 'error',
      content: 'Cannot do that: division by zero. Ask for another divisor.',
    });
  });

  it('greet with injected state, whole and one field', async () => {
    const state = { user: { name: 'Ada' }, theme: 'dark' };
    const { messages } = await new ToolInvoker({ pool }).run([call('greet'), call('greet_all')], { state });
    expect(messages.map((m) => m.content)).toEqual(['Hello, Ada!', 'Hello, Ada (en)']);
  });

  it('remember / recall through the store (the page sees it too)', async () => {
    const invoker = new ToolInvoker({ pool });
    await invoker.run([call('remember', { key: 'favourite tea', value: 'sencha' })]);
    const { messages } = await invoker.run([call('recall', { key: 'favourite tea' })]);
    expect(messages[0]?.content).toBe('sencha');
    const page = openIndexedDBStore(storeName);
    expect((await page.get(['memory'], 'favourite tea'))?.value).toEqual({ value: 'sencha' });
    page.close();
  });

  it('a slow counter streaming ticks', async () => {
    const c = call('slow_counter', { n: 3 });
    const events: ToolEvent[] = [];
    for await (const event of new ToolInvoker({ pool }).stream([c])) events.push(event);
    expect(events.map((e) => (e.type === 'tool-output-delta' ? e.delta : e.type))).toEqual([
      'tool-started',
      { tick: 1 },
      { tick: 2 },
      { tick: 3 },
      'tool-finished',
      'done',
    ]);
    expect((events[4] as { message: { content: string } }).message.content).toBe('counted to 3');
  });

  it("tool-finished carries each tool's value from the worker: JSON read back, text as it is", async () => {
    const outputs: Record<string, unknown> = {};
    const calls = [call('multiply', { a: 3, b: 12 }), call('get_weather', { city: 'Paris' }), call('report')];
    for await (const e of new ToolInvoker({ pool }).stream(calls))
      if (e.type === 'tool-finished') outputs[e.name] = e.output;
    expect(outputs).toEqual({ multiply: 36, get_weather: 'It is sunny in Paris.', report: '2 rows' });
  });

  it('an admin-only delete blocked by an interceptor', async () => {
    const adminsOnly: Interceptor = (request, next) =>
      request.toolCall.name === 'delete_user' && (request.context as { role?: string })?.role !== 'admin'
        ? { content: 'Only admins may delete users.', status: 'error' }
        : next(request);
    const invoker = new ToolInvoker({ pool, interceptors: [adminsOnly] });
    expect(
      (await invoker.run([call('delete_user', { userId: 'u7' })], { context: { role: 'guest' } })).messages[0],
    ).toMatchObject({
      status: 'error',
      content: 'Only admins may delete users.',
    });
    expect(
      (await invoker.run([call('delete_user', { userId: 'u7' })], { context: { role: 'admin' } })).messages[0]?.content,
    ).toBe('Deleted u7');
  });
});

describe('mixed inline and worker tools', () => {
  it('runs a DOM tool on the page beside worker tools, in call order', async () => {
    document.title = 'Moat test page';
    const invoker = await ToolInvoker.create({ pool, inlineTools: [pageTitle] });
    const { messages } = await invoker.run([
      call('multiply', { a: 2, b: 3 }),
      call('page_title'),
      call('add', { a: 1, b: 1 }),
    ]);
    expect(messages.map((m) => m.content)).toEqual(['6', 'Moat test page', '2']);
    const specs = await invoker.specs();
    expect(specs.find((s) => s.name === 'page_title')?.isolated).toBe(false);
    expect(specs.find((s) => s.name === 'multiply')?.isolated).toBeUndefined();
  });

  it('a name both inline and in the pool is an error at construction', async () => {
    const clash = defineTool({ name: 'add', description: 'Another add.', input: z.object({}), run: () => 0 });
    await expect(ToolInvoker.create({ pool, inlineTools: [clash] })).rejects.toBeInstanceOf(InvalidToolSpecError);
    await expect(ToolInvoker.create({ pool, inlineTools: [clash] })).rejects.toThrow(
      /defined both inline and in the pool/,
    );
  });

  it('breaking out of the stream cancels worker calls', async () => {
    const invoker = new ToolInvoker({ pool });
    const c = call('slow_counter', { n: 10_000 });
    for await (const event of invoker.stream([c])) if (event.type === 'tool-output-delta') break;
    expect(pool.stats.running).toBe(0); // the call was withdrawn from its worker, not left to count to 10,000
  });
});

describe('time limits through the invoker', () => {
  it("the most specific wins: the call's, the tool's own, the invoker's, the pool's", async () => {
    const limited = testPool({ size: 1, timeoutMs: 20_000 });
    try {
      // The tool's own (300 ms) over the invoker's (20 s): 1.5 s of work is stopped at 300 ms.
      const generous = new ToolInvoker({ pool: limited, timeoutMs: 20_000, onError: 'throw' });
      await expect(generous.run([call('quick_spin', { ms: 1_500 })])).rejects.toThrow(
        /Tool 'quick_spin' \(call seed_\d+\) timed out after 300 ms/,
      );
      // The invoker's (200 ms) over the pool's (20 s), for a tool with no limit of its own.
      const strict = new ToolInvoker({ pool: limited, timeoutMs: 200, onError: 'throw' });
      await expect(strict.run([call('spin', { ms: 1_500 })])).rejects.toThrow(/timed out after 200 ms/);
      // A call's own (an interceptor's override) over the tool's: 500 ms of work finishes.
      const patient: Interceptor = (request, next) => next(request.override({ timeoutMs: 5_000 }));
      const { messages } = await new ToolInvoker({ pool: limited, timeoutMs: 200, interceptors: [patient] }).run([
        call('quick_spin', { ms: 500 }),
      ]);
      expect(messages[0]?.status).toBe('success');
      expect(limited.stats.restarted).toBe(2);
    } finally {
      await limited.close();
    }
  });
});

describe('a turn of 10,000 calls, through a sealed pool', () => {
  const CALLS = 10_000;
  const wideTurn = (prefix: string) =>
    Array.from({ length: CALLS }, (_, i): ToolCall => ({ id: `${prefix}_${i}`, name: 'add', args: { a: i, b: 1 } }));

  /** Each call's events by type, counted. */
  function countEvents(events: ToolEvent[]): Map<string, Record<string, number>> {
    const counts = new Map<string, Record<string, number>>();
    for (const e of events) {
      if (!('toolCallId' in e)) continue;
      const mine = counts.get(e.toolCallId) ?? {};
      mine[e.type] = (mine[e.type] ?? 0) + 1;
      counts.set(e.toolCallId, mine);
    }
    return counts;
  }

  it('settles every call once, each with its own result, in call order', async () => {
    const sealed = createWorkerPool({ worker: toolsUrl, timeoutMs: 30_000 });
    try {
      const calls = wideTurn('wide');
      const events: ToolEvent[] = [];
      for await (const event of new ToolInvoker({ pool: sealed }).stream(aiMessage({ toolCalls: calls })))
        events.push(event);
      const counts = countEvents(events);
      expect(counts.size).toBe(CALLS);
      for (const c of calls) expect(counts.get(c.id)).toEqual({ 'tool-started': 1, 'tool-finished': 1 });
      const done = events.at(-1);
      if (done?.type !== 'done') throw new Error(`the last event is ${done?.type}`);
      expect(done.messages.map((m) => [m.toolCallId, m.content])).toEqual(calls.map((c, i) => [c.id, `${i + 1}`]));
      expect(sealed.stats).toMatchObject({ running: 0, queued: 0, restarted: 0 });
    } finally {
      await sealed.close();
    }
  }, 60_000);

  it('aborted midway, with every call on its worker at once: each call ends once, and the pool serves on', async () => {
    const sealed = createWorkerPool({ worker: toolsUrl, concurrency: CALLS, timeoutMs: 30_000 });
    try {
      const calls = wideTurn('cut');
      const controller = new AbortController();
      const reason = new Error('stopped by the user');
      const events: ToolEvent[] = [];
      const reading = (async () => {
        for await (const event of new ToolInvoker({ pool: sealed }).stream(calls, { signal: controller.signal })) {
          events.push(event);
          if (event.type === 'tool-finished' && events.length > CALLS + 100) controller.abort(reason);
        }
      })();
      await expect(reading).rejects.toBe(reason);
      const counts = countEvents(events);
      expect(counts.size).toBe(CALLS);
      const ends = calls.map((c) => {
        const { 'tool-started': started, ...end } = counts.get(c.id) ?? {};
        expect(started).toBe(1);
        return end;
      });
      // One end each: a result that came before the abort, or the abort.
      for (const end of ends) expect([{ 'tool-finished': 1 }, { 'tool-error': 1 }]).toContainEqual(end);
      expect(ends.filter((e) => e['tool-finished']).length).toBeGreaterThan(100);
      expect(ends.filter((e) => e['tool-error']).length).toBeGreaterThan(0);
      expect(events.some((e) => e.type === 'done')).toBe(false);
      // The cancelled calls end in the worker (or it is stopped for them): it serves the next turn.
      const { messages } = await new ToolInvoker({ pool: sealed }).run([call('add', { a: 2, b: 2 })]);
      expect(messages[0]?.content).toBe('4');
      expect(sealed.stats).toMatchObject({ running: 0, queued: 0 });
    } finally {
      await sealed.close();
    }
  }, 60_000);
});

describe('a worker whose result says JSON and is not', () => {
  it('fails that call with ToolOutputError, and its state update is not merged (run and stream)', async () => {
    const garbled = createWorkerPool({
      worker: () =>
        new Worker(new URL('../../test/workers/garbled-reply.worker.ts', import.meta.url), {
          type: 'module',
          name: 'json-not-json',
        }),
      size: 1,
    });
    try {
      // The worker answers calls only (no describe): its one tool is listed here.
      const spec = { name: 'add', description: 'add', inputSchema: { type: 'object' as const } };
      const pool = { specs: async () => [spec], call: garbled.call.bind(garbled) };
      const invoker = new ToolInvoker({ pool: pool as never });
      const state = { kept: 1 };
      const ran = await invoker.run([call('add', { a: 1, b: 1 })], { state });
      expect(ran.messages[0]).toMatchObject({ status: 'error' });
      expect(ran.messages[0]?.content).toMatch(/returned an unusable result: it says its content is JSON/);
      expect(ran.state).toEqual({ kept: 1 });

      const events: ToolEvent[] = [];
      for await (const event of invoker.stream([call('add', { a: 1, b: 1 })], { state })) events.push(event);
      expect(events.map((e) => e.type)).toEqual(['tool-started', 'tool-error', 'done']);
      const failed = events[1];
      expect(failed?.type === 'tool-error' && ToolOutputError.isInstance(failed.error)).toBe(true);
      expect(events[2]).toMatchObject({ type: 'done', state: { kept: 1 } });
      expect((events[2] as { state: object }).state).not.toHaveProperty('leaked');
    } finally {
      await garbled.close();
    }
  });
});
