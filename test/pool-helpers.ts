// Browser-test helpers for the pool (not part of the library).
import { expect, vi } from 'vitest';
import { createWorkerPool, type WorkerPoolOptions } from '../src/pool/worker-pool';

export const toolsWorker = () => new Worker(new URL('./workers/tools.worker.ts', import.meta.url), { type: 'module' });

export function testPool(options: Partial<WorkerPoolOptions> = {}) {
  return createWorkerPool({ worker: toolsWorker, size: 2, timeoutMs: 5_000, ...options });
}

const READY = 'watch-ready:';

/**
 * What test tools report on a BroadcastChannel as they run (by default the pool's test tools: the
 * id of each call that really ran, `stopped:<id>` when a call saw its abort), as it arrives.
 */
export async function watchRuns(channelName = 'moat-test-runs') {
  const channel = new BroadcastChannel(channelName);
  const runs: string[] = [];
  // A new channel hears only what is posted once the browser has joined it: a worker's report
  // posted in that moment was lost (seen under load). It has joined once it hears a marker that
  // another channel of this page posts after it (the page's channels reach the browser in order).
  const marker = `${READY}${crypto.randomUUID()}`;
  const joined = new Promise<void>((resolve) => {
    channel.onmessage = (event) => {
      const data = event.data as string;
      if (data === marker) resolve();
      // Other watchers' markers (test files running beside this one) are not reports.
      else if (!(typeof data === 'string' && data.startsWith(READY))) runs.push(data);
    };
  });
  const poster = new BroadcastChannel(channelName);
  poster.postMessage(marker);
  await joined;
  poster.close();
  return {
    runs,
    /** Resolves once every report named has arrived; fails, saying what did, after `timeoutMs`. */
    arrived: (reports: string[], timeoutMs = 5_000) =>
      vi.waitFor(() => expect(runs).toEqual(expect.arrayContaining(reports)), { timeout: timeoutMs, interval: 5 }),
    stop: () => channel.close(),
  };
}

// The run reports of test files running side by side share one BroadcastChannel: each file's ids
// start at a random number, so that one file's report never stands for another's call.
let n = Math.floor(Math.random() * 1e9);
export const call = (name: string, args: Record<string, unknown> = {}) => ({ id: `call_${++n}`, name, args });

/** A promise's outcome as a value: `{ ok: true, value }` or `{ ok: false, error }`; never rejects. */
export const settle = <T>(p: Promise<T>) =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error }),
  );
