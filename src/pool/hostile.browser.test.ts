// A hostile tool worker tries Comlink's messages on every channel it can reach (test/workers/
// hostile.worker.ts says which): nothing runs or changes on the page, and the pool keeps working.
import { afterEach, describe, expect, it } from 'vitest';
import { call } from '../../test/pool-helpers';
import { PageStoreHost } from '../frame/page-store-host';
import { resultValue } from './pool-options';
import { PROTOCOL_VERSION } from './protocol';
import { createWorkerPool, type WorkerPool } from './worker-pool';

const hostile = () =>
  new Worker(new URL('../../test/workers/hostile.worker.ts', import.meta.url), {
    type: 'module',
    name: String(PROTOCOL_VERSION),
  });

/** What the page would show if any of it ran or was assigned here. */
function pageHarm() {
  const page = globalThis as { __moatPwned?: unknown };
  const probe = {} as { polluted?: unknown; __moatPwned?: unknown };
  return {
    pwned: page.__moatPwned,
    polluted: probe.polluted,
    inherited: probe.__moatPwned,
    prototypeKeys: Object.getOwnPropertyNames(Object.prototype).filter((k) => /polluted|moat/i.test(k)),
  };
}
const NO_HARM = { pwned: undefined, polluted: undefined, inherited: undefined, prototypeKeys: [] };

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('a hostile tool worker speaking Comlink', () => {
  it('runs nothing on the page through its own channel; the pool keeps serving', async () => {
    pool = createWorkerPool({ worker: hostile, size: 1, quarantineMs: 0 });
    for (let i = 0; i < 5; i++) expect(resultValue(await pool.call(call('add', { a: i, b: 1 })))).toBe(i + 1);
    expect(pageHarm()).toEqual(NO_HARM);
    // Once serving, a Comlink request from it is not a message of the protocol: it was stopped
    // (and replaced) for it, its calls' results kept.
    expect(pool.stats.restarted).toBeGreaterThanOrEqual(1);
  });

  it('runs nothing on the page through the store port', async () => {
    const host = new PageStoreHost(`hostile-${Math.random()}`);
    const { port, stop } = host.link();
    const worker = hostile();
    try {
      const attacked = new Promise<unknown>((resolve) => {
        worker.addEventListener('message', (event) => resolve(event.data));
      });
      worker.postMessage('store-port', [port]);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const late = new Promise((resolve) => {
        timer = setTimeout(() => resolve('no answer from the store in 10 s'), 10_000);
      });
      // The store answered the one well-formed ask it sent last: everything before it was read.
      expect(await Promise.race([attacked, late])).toBe('store-port attacked');
      clearTimeout(timer);
      expect(pageHarm()).toEqual(NO_HARM);
    } finally {
      worker.terminate();
      stop();
      host.close();
    }
  });
});
