// A hostile call costs only itself: finished results are never lost, calls cut off by a
// sibling's fault re-run when their tool is idempotent (once), offenders go to quarantine, and
// the network is closed unless the pool opens it. Runs isolated and not ('browser-plain').
import { afterEach, describe, expect, it } from 'vitest';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { WorkerCrashedError } from '../errors/worker-crashed-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import type { ToolEvent } from '../invoker/types';
import { aiMessage } from '../messages/constructors';
import { resultValue } from './tool-result';
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

describe(`fault isolation (cross-origin isolated: ${crossOriginIsolated})`, () => {
  it('a result finished before a sibling blocks the worker is delivered, not lost with it', async () => {
    pool = make({ worker: plain });
    await pool.warm();
    // One batch: add answers synchronously, then spin holds the thread until it is stopped.
    const added = pool.call(call('add', { a: 2, b: 3 }));
    const boom = pool.call(call('boom'));
    const spun = pool.call(call('spin'), { timeoutMs: 2_000 });
    const spinEnds = expect(spun).rejects.toBeInstanceOf(ToolTimeoutError);
    const start = performance.now();
    expect(resultValue(await added)).toBe(5);
    await expect(boom).rejects.toMatchObject({ name: 'ToolExecutionError' });
    // Not held until the loop's time runs out: posted before spin started (no shared memory), or
    // read from the result stash while it spins (within PEEK_MS).
    expect(performance.now() - start).toBeLessThan(1_000);
    await spinEnds;
  });

  it('a started call of an idempotent tool re-runs once on a fresh worker, and says so', async () => {
    pool = make({ worker: idempotent });
    await pool.warm();
    const reruns: string[] = [];
    const slept = pool.call(call('sleep', { ms: 300 }), { onRerun: ({ toolCallId }) => reruns.push(toolCallId) });
    await new Promise((r) => setTimeout(r, 30)); // started, and waiting
    await expect(pool.call(call('spin'), { timeoutMs: 50 })).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(resultValue(await slept)).toBe('slept');
    expect(reruns).toHaveLength(1);
    expect(pool.stats).toMatchObject({ rerun: 1, restarted: 1 });
  });

  it('a started call of a tool that is not idempotent fails, naming the call that caused it', async () => {
    pool = make({ worker: plain });
    await pool.warm();
    const slept = pool.call(call('sleep', { ms: 300 }));
    await new Promise((r) => setTimeout(r, 30));
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
    let rerun!: () => void;
    const wasRerun = new Promise<void>((r) => {
      rerun = r;
    });
    const slept = pool.call(call('sleep', { ms: 1000 }), { onRerun: () => rerun() });
    await new Promise((r) => setTimeout(r, 30));
    await expect(pool.call(call('spin'), { timeoutMs: 50 })).rejects.toBeInstanceOf(ToolTimeoutError);
    await wasRerun;
    await new Promise((r) => setTimeout(r, 30));
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
    const turn = invoker.run(aiMessage({ toolCalls: [call('sleep', { ms: 300 })] }), {
      onEvent: (e) => events.push(e),
    });
    await new Promise((r) => setTimeout(r, 60));
    await expect(pool.call(call('spin'), { timeoutMs: 50 })).rejects.toBeInstanceOf(ToolTimeoutError);
    const { messages } = await turn;
    expect(messages[0]?.content).toBe('slept');
    expect(events.map((e) => e.type)).toEqual(['tool-started', 'tool-rerun', 'tool-finished', 'done']);
  });
});
