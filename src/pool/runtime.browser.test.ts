// What a tool sees and gives back through the pool: streams, state, context, results.
import { afterEach, describe, expect, it } from 'vitest';
import { call, testPool, watchRuns } from '../../test/pool-helpers';
import { resultValue } from './pool-options';
import { createWorkerPool, type WorkerPool } from './worker-pool';

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('tool runtime through the pool', () => {
  it('streams deltas in order before the result; the return value is the result', async () => {
    pool = testPool();
    const deltas: unknown[] = [];
    const result = await pool.call(
      { id: 't1', name: 'ticks', args: { n: 5 } },
      { onDelta: (d, id) => deltas.push([id, d]) },
    );
    expect(deltas).toEqual([1, 2, 3, 4, 5].map((tick) => ['t1', { tick }]));
    expect(result).toMatchObject({ content: 'done after 5', kind: 'text' });
  });

  it('uses the last yielded item as the result when the stream returns nothing', async () => {
    pool = testPool();
    const deltas: unknown[] = [];
    const result = await pool.call(call('last_tick', { n: 3 }), { onDelta: (d) => deltas.push(d) });
    expect(deltas).toEqual(['tick 1', 'tick 2', 'tick 3']);
    expect(result.content).toBe('tick 3');
  });

  it('delivers runtime.emit deltas, many in one message', async () => {
    pool = testPool();
    const deltas: unknown[] = [];
    const result = await pool.call(call('emit', { n: 100 }), { onDelta: (d) => deltas.push(d) });
    expect(deltas).toEqual(Array.from({ length: 100 }, (_, i) => i));
    expect(resultValue(result)).toBe(100);
  });

  it('injects the whole state, or only the declared field, and the context', async () => {
    pool = testPool();
    const state = { user: { name: 'Ada' }, cart: [1, 2], secret: 'not for user_state' };
    const whole = await pool.call(call('whole_state'), { state, context: { locale: 'fr' } });
    expect(resultValue(whole)).toEqual({ state, context: { locale: 'fr' } });
    const field = await pool.call(call('user_state'), { state });
    expect(resultValue(field)).toEqual({ state: { name: 'Ada' } });
    const none = await pool.call(call('user_state'), { state: { other: 1 } });
    expect(resultValue(none)).toEqual({});
  });

  it('once it knows the tools, sends each the part of the state it declared, and nothing to the others', async () => {
    // What the worker received, told by a witness in its realm: no patch of the page's postMessage.
    pool = createWorkerPool({
      worker: () => new Worker(new URL('../../test/workers/witness.worker.ts', import.meta.url), { type: 'module' }),
      size: 1,
    });
    await pool.specs();
    const state = { user: { name: 'Ada' }, big: 'x'.repeat(1000) };
    expect(resultValue(await pool.call(call('add', { a: 1, b: 2 }), { state }))).toBe(3);
    expect(resultValue(await pool.call(call('user_state'), { state }))).toEqual({ state: { name: 'Ada' } });
    expect(resultValue(await pool.call(call('user_state'), { state: { big: 'x' } }))).toEqual({});
    expect(resultValue(await pool.call(call('whole_state'), { state }))).toEqual({ state });
    const sent = (resultValue(await pool.call(call('witness'))) as unknown[][]).flat();
    expect(sent).toEqual([0, { state: { user: { name: 'Ada' } } }, { state: {} }, { state }, 0]);
  });

  it('carries artifacts and state updates beside the text', async () => {
    pool = testPool();
    expect(await pool.call({ id: 'a', name: 'artifact', args: {} })).toEqual({
      toolCallId: 'a',
      name: 'artifact',
      content: '2 rows',
      kind: 'text',
      artifact: [{ a: 1 }, { a: 2 }],
    });
    expect(await pool.call({ id: 'c', name: 'remember_fact', args: { fact: 'tea' } })).toEqual({
      toolCallId: 'c',
      name: 'remember_fact',
      content: 'Remembered tea',
      kind: 'text',
      update: { facts: ['tea'] },
    });
  });

  it("converts results with resultFormat 'json': strings become JSON too", async () => {
    pool = testPool();
    const text = await pool.call(call('last_tick', { n: 1 }), { resultFormat: 'json' });
    expect(text).toMatchObject({ content: '"tick 1"', kind: 'json' });
    expect(resultValue(text)).toBe('tick 1');
  });

  it('tool code cannot post to the page (no forged results)', async () => {
    pool = testPool({ size: 1 });
    expect(resultValue(await pool.call(call('post_to_page')))).toEqual(['TypeError', 'TypeError']);
  });

  it('gives tools the specs of every tool served', async () => {
    pool = testPool();
    const names = resultValue(await pool.call(call('list_tools'))) as string[];
    expect(names).toEqual((await pool.specs()).map((s) => s.name));
  });

  it('aborting a call not yet sent takes it back: it never runs', async () => {
    pool = testPool({ size: 1 });
    const watch = await watchRuns();
    const controller = new AbortController();
    const pending = pool.call({ id: 'never', name: 'echo', args: { text: 'x' } }, { signal: controller.signal });
    controller.abort(new Error('changed my mind'));
    await expect(pending).rejects.toThrow('changed my mind');
    expect(resultValue(await pool.call({ id: 'after', name: 'echo', args: { text: 'y' } }))).toEqual({ text: 'y' });
    // One worker, whose reports arrive in order: a run of the first call would be heard before this.
    await watch.arrived(['after']);
    watch.stop();
    expect(watch.runs).toEqual(['after']);
  });

  it('reports its state in stats', async () => {
    pool = testPool({ size: 2 });
    expect(pool.stats).toEqual({
      workers: 0,
      busy: 0,
      queued: 0,
      running: 0,
      restarted: 0,
      rerun: 0,
      recovered: 0,
      quarantined: 0,
    });
    await pool.warm();
    const watch = await watchRuns();
    const slowCall = call('slow', { ms: 100 });
    const slow = pool.call(slowCall);
    await watch.arrived([slowCall.id]); // running in a worker
    watch.stop();
    expect(pool.stats).toMatchObject({ workers: 2, busy: 1, running: 1 });
    await slow;
    expect(pool.stats).toMatchObject({ busy: 0, running: 0 });
  });
});
