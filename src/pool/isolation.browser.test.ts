// A hostile call costs only itself: finished results are never lost, calls cut off by a
// sibling's fault re-run when their tool is idempotent (once), offenders go to quarantine, and
// the network is closed unless the pool opens it. Runs isolated and not ('browser-plain').
import { afterEach, describe, expect, it, vi } from 'vitest';
import { watchRuns } from '../../test/pool-helpers';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { WorkerCrashedError } from '../errors/worker-crashed-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import type { ToolEvent } from '../invoker/types';
import { aiMessage } from '../messages/constructors';
import { resultValue } from './pool-options';
import { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from './worker-pool';

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

// Built into one file by test/built-workers.ts: add, sleep (idempotent in the second), boom, spin.
const plain = () => new Worker(new URL('../../test/.generated/storm.worker.js', import.meta.url), { type: 'module' });
const idempotent = () =>
  new Worker(new URL('../../test/.generated/storm-idempotent.worker.js', import.meta.url), { type: 'module' });
const make = (options: Partial<WorkerPoolOptions> & { worker: () => Worker }) =>
  createWorkerPool({ size: 1, ...options });
let n = 0;
const call = (name: string, args: Record<string, unknown> = {}) => ({ id: `${name}_${++n}`, name, args });
/** The storm tools' reports (`start:<id>`, `done:<id>`): plain workers only (a sealed one's origin cannot reach it). */
const watchStorm = () => watchRuns('moat-storm');

describe(`fault isolation (cross-origin isolated: ${crossOriginIsolated})`, () => {
  it('a result finished before a sibling blocks the worker is delivered, not lost with it', async () => {
    pool = make({ worker: plain });
    await pool.warm();
    // One batch: add answers synchronously, then spin holds the thread until it is stopped.
    const settled: string[] = [];
    const added = pool.call(call('add', { a: 2, b: 3 })).finally(() => settled.push('add'));
    const boom = pool.call(call('boom')).finally(() => settled.push('boom'));
    const spun = pool.call(call('spin'), { timeoutMs: 2_000 }).finally(() => settled.push('spin'));
    expect(resultValue(await added)).toBe(5);
    await expect(boom).rejects.toMatchObject({ name: 'ToolExecutionError' });
    await expect(spun).rejects.toBeInstanceOf(ToolTimeoutError);
    // Not held until the loop's time ran out: each was posted before spin started.
    expect(settled).toEqual(['add', 'boom', 'spin']);
  });

  it('a started call of an idempotent tool re-runs once on a fresh worker, and says so', async () => {
    pool = make({ worker: idempotent });
    await pool.warm();
    const reruns: string[] = [];
    const storm = await watchStorm();
    const sleep = call('sleep', { ms: 300 });
    const slept = pool.call(sleep, { onRerun: ({ toolCallId }) => reruns.push(toolCallId) });
    await storm.arrived([`start:${sleep.id}`]); // started, and waiting
    storm.stop();
    await expect(pool.call(call('spin'), { timeoutMs: 50 })).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(resultValue(await slept)).toBe('slept');
    expect(reruns).toHaveLength(1);
    expect(pool.stats).toMatchObject({ rerun: 1, restarted: 1 });
  });

  it('a started call of a tool that is not idempotent fails, naming the call that caused it', async () => {
    pool = make({ worker: plain });
    await pool.warm();
    const storm = await watchStorm();
    const sleep = call('sleep', { ms: 300 });
    const slept = pool.call(sleep);
    await storm.arrived([`start:${sleep.id}`]); // started, and waiting
    storm.stop();
    const spin = call('spin');
    await expect(pool.call(spin, { timeoutMs: 50 })).rejects.toBeInstanceOf(ToolTimeoutError);
    const error = await slept.catch((e: unknown) => e as WorkerCrashedError);
    expect(error).toBeInstanceOf(WorkerCrashedError);
    expect(error).toMatchObject({ culprit: { toolCallId: spin.id, toolName: 'spin' } });
    expect((error as Error).message).toContain(`stopped for call ${spin.id} ('spin')`);
    expect((error as Error).message).toContain('timed out after 50 ms');
  });

  it('a second kill of the same call is final', async () => {
    pool = make({ worker: idempotent, quarantineMs: 0 }); // no quarantine: the second spin lands beside it
    await pool.warm();
    const storm = await watchStorm();
    const reruns: string[] = [];
    const sleep = call('sleep', { ms: 1000 });
    const slept = pool.call(sleep, { onRerun: ({ toolCallId }) => reruns.push(toolCallId) });
    await storm.arrived([`start:${sleep.id}`]);
    await expect(pool.call(call('spin'), { timeoutMs: 50 })).rejects.toBeInstanceOf(ToolTimeoutError);
    // Started again on the fresh worker (the second start report), where the next spin lands beside it.
    await vi.waitFor(() => expect(storm.runs.filter((r) => r === `start:${sleep.id}`)).toHaveLength(2));
    storm.stop();
    expect(reruns).toEqual([sleep.id]);
    await expect(pool.call(call('spin'), { timeoutMs: 50 })).rejects.toBeInstanceOf(ToolTimeoutError);
    await expect(slept).rejects.toBeInstanceOf(WorkerCrashedError);
    expect(pool.stats.rerun).toBe(1);
  });

  it('a tool that timed out runs in quarantine: alone, so it cannot take innocent calls with it', async () => {
    pool = make({ worker: plain });
    await pool.warm();
    await expect(pool.call(call('spin'), { timeoutMs: 50 })).rejects.toBeInstanceOf(ToolTimeoutError);
    // The same again, with an innocent call beside it: the innocent one is not touched.
    const slept = pool.call(call('sleep', { ms: 200 }));
    const again = pool.call(call('spin'), { timeoutMs: 50 });
    await expect(again).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(resultValue(await slept)).toBe('slept');
    expect(pool.stats).toMatchObject({ quarantined: 1, restarted: 2 });
  });

  it("the invoker's events say when a call was re-run", async () => {
    pool = make({ worker: idempotent });
    const invoker = await ToolInvoker.create({ pool });
    const events: ToolEvent[] = [];
    const storm = await watchStorm();
    const sleep = call('sleep', { ms: 300 });
    const turn = invoker.run(aiMessage({ toolCalls: [sleep] }), {
      onEvent: (e) => events.push(e),
    });
    await storm.arrived([`start:${sleep.id}`]); // started, and waiting
    storm.stop();
    await expect(pool.call(call('spin'), { timeoutMs: 50 })).rejects.toBeInstanceOf(ToolTimeoutError);
    const { messages } = await turn;
    expect(messages[0]?.content).toBe('slept');
    expect(events.map((e) => e.type)).toEqual(['tool-started', 'tool-rerun', 'tool-finished', 'done']);
  });
});
