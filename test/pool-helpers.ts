// Browser-test helpers for the pool (not part of the library).
import { expect, vi } from 'vitest';
import { createWorkerPool, type WorkerPoolOptions } from '../src/pool/worker-pool';

export const toolsWorker = () => new Worker(new URL('./workers/tools.worker.ts', import.meta.url), { type: 'module' });

export function testPool(options: Partial<WorkerPoolOptions> = {}) {
  return createWorkerPool({ worker: toolsWorker, size: 2, timeoutMs: 5_000, ...options });
}

/**
 * What test tools report on a BroadcastChannel as they run (by default the pool's test tools: the
 * id of each call that really ran, `stopped:<id>` when a call saw its abort), as it arrives.
 */
export function watchRuns(channelName = 'moat-test-runs') {
  const channel = new BroadcastChannel(channelName);
  const runs: string[] = [];
  channel.onmessage = (event) => runs.push(event.data as string);
  return {
    runs,
    /** Resolves once every report named has arrived; fails, saying what did, after `timeoutMs`. */
    arrived: (reports: string[], timeoutMs = 5_000) =>
      vi.waitFor(() => expect(runs).toEqual(expect.arrayContaining(reports)), { timeout: timeoutMs, interval: 5 }),
    stop: () => channel.close(),
  };
}

let n = 0;
export const call = (name: string, args: Record<string, unknown> = {}) => ({ id: `call_${++n}`, name, args });
