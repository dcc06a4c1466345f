// A tool burning CPU in a worker costs the page nothing: no long task, frames keep coming. Runs in
// the 'quiet' project, alone after the other browser tests: with them beside it on two cores, it
// would measure the machine, not the pool.
import { afterEach, describe, expect, it } from 'vitest';
import { countFrames } from '../../test/frames';
import { call, testPool } from '../../test/pool-helpers';
import { resultValue } from './pool-options';
import type { WorkerPool } from './worker-pool';

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('the page stays responsive', () => {
  it('sees no long task and keeps painting while a tool burns CPU for 2 s', async () => {
    const p = testPool({ size: 1 });
    pool = p;
    await p.warm();
    const longTasks: PerformanceEntry[] = [];
    const observer = new PerformanceObserver((list) => longTasks.push(...list.getEntries()));
    observer.observe({ type: 'longtask' });
    const stopCounting = countFrames();
    const started = performance.now();
    const result = await p.call(call('spin', { ms: 2000 }));
    const elapsed = performance.now() - started;
    const frames = stopCounting();
    observer.disconnect();
    expect(resultValue(result)).toBeGreaterThan(0);
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(longTasks).toEqual([]);
    expect(frames).toBeGreaterThan(30);
  });
});
