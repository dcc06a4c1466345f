// Browser-test helpers for the pool (not part of the library).
import { createWorkerPool, type WorkerPoolOptions } from '../src/pool/worker-pool';

export const toolsWorker = () => new Worker(new URL('./workers/tools.worker.ts', import.meta.url), { type: 'module' });

export function testPool(options: Partial<WorkerPoolOptions> = {}) {
  return createWorkerPool({ worker: toolsWorker, size: 2, timeoutMs: 5_000, ...options });
}

/** Tool call ids that really ran in a worker, as the test tools report them. */
export function watchRuns(): { runs: string[]; stop(): void } {
  const channel = new BroadcastChannel('moat-test-runs');
  const runs: string[] = [];
  channel.onmessage = (event) => runs.push(event.data as string);
  return { runs, stop: () => channel.close() };
}

let n = 0;
export const call = (name: string, args: Record<string, unknown> = {}) => ({ id: `call_${++n}`, name, args });
