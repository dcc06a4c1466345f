// The network policy, enforced inside the worker: a denied tool reaches nothing on a second
// local server, through any door. import() is closed only by the worker script's CSP.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Probe, probeTag } from '../../test/probe-hits';
import { createWorkerPool, type NetworkPolicy, type WorkerPool } from './worker-pool';

let pool: WorkerPool | undefined;
/** The probe server, under this test's own tag. */
let server: Probe;

const plainWorker = () =>
  new Worker(new URL('../../test/workers/network.worker.ts', import.meta.url), { type: 'module' });
const cspWorker = () =>
  new Worker(new URL('../../test/workers/csp-network.worker.ts', import.meta.url), { type: 'module' });

/**
 * This test's requests that reached the server. Read once a probe has answered: each door it
 * tries settles only once its URL was fetched or refused (a socket's open, error or close, a
 * font's load, a nested worker's error), but a notification's icon, which the allowed cases wait
 * for with `server.reached()`.
 */
const hits = () => server.hits();

async function probe(
  door: string,
  path: string,
  network: NetworkPolicy,
  worker = plainWorker,
  options = {},
): Promise<string> {
  pool = createWorkerPool({ worker, size: 1, network, timeoutMs: 10_000, ...options });
  const result = await pool.call({ id: `${door}`, name: 'probe', args: { door, url: server.url(path) } });
  await pool.close();
  pool = undefined;
  return result.content;
}

beforeEach(() => {
  server = probeTag();
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

const doors = [
  'fetch',
  'fetch-prototype',
  'fetch-delete',
  'fetch-request',
  'xhr',
  'xhr-sync',
  'websocket',
  'websocket-constructor',
  'eventsource',
  'import-scripts',
  'nested-worker',
  'cache',
  'font',
  'font-second-url',
  'font-object-source',
  'font-capitals',
  'notification',
  'poisoned-iterator',
  'poisoned-promise',
  'poisoned-startswith',
  'poisoned-request-url',
];

/** Doors given a URL that reads as a harmless local one first and as the server's after. */
const changingDoors = [
  'fetch-flip',
  'xhr-flip',
  'websocket-flip',
  'eventsource-flip',
  'cache-flip',
  'cache-addall-flip',
  'notification-flip',
];

describe("network: 'deny'", () => {
  it.each(doors)('%s reaches nothing', async (door) => {
    const outcome = await probe(door, `/${door}.js`, 'deny');
    expect(outcome).toMatch(/^blocked: /);
    expect(await hits()).toEqual([]);
  });

  it.each(changingDoors)('%s reaches nothing: the URL checked is the URL used', async (door) => {
    const outcome = await probe(door, `/${door}.js`, 'deny');
    expect(outcome).not.toContain('export const reached');
    expect(await hits()).toEqual([]);
  });

  it('is the default: a pool given no policy reaches nothing', async () => {
    pool = createWorkerPool({ worker: plainWorker, size: 1 });
    const result = await pool.call({
      id: 'default',
      name: 'probe',
      args: { door: 'fetch', url: server.url('/default') },
    });
    expect(result.content).toMatch(/^blocked: NetworkDeniedError: .*\(policy 'deny'\)/);
    expect(await hits()).toEqual([]);
  });

  it('says why, with a NetworkDeniedError', async () => {
    expect(await probe('fetch', '/why', 'deny')).toBe(
      `blocked: NetworkDeniedError: Network access denied by the pool's policy: fetch ${server.url('/why')} (policy 'deny'). To allow it, give createWorkerPool a \`network\` option: 'allow', or a function (url, api) => boolean that answers true for this URL.`,
    );
  });

  it('cannot be undone by redefining fetch', async () => {
    expect(await probe('fetch-redefine', '/x', 'deny')).toMatch(/^blocked: TypeError: Cannot redefine property: fetch/);
  });

  it('does not close dynamic import() without a CSP: that door stays open (documented)', async () => {
    expect(await probe('dynamic-import', '/open-door.js', 'deny')).toBe('reached: imported');
    expect(await hits()).toEqual(['GET /open-door.js']);
  });

  it('closes dynamic import() when the worker script is served with workerContentSecurityPolicy', async () => {
    expect(await probe('dynamic-import', '/csp-door.js', 'deny', cspWorker)).toMatch(/^blocked: /);
    expect(await probe('fetch', '/csp-fetch', 'allow', cspWorker)).toMatch(/^blocked: /);
    expect(await hits()).toEqual([]);
  });
});

describe("network: 'allow'", () => {
  it.each(['fetch', 'xhr', 'eventsource', 'websocket', 'cache', 'font-capitals', 'notification'])(
    '%s goes through, with what the guard passes on (a string, a Request, a copy of the options)',
    async (door) => {
      expect(await probe(door, `/ok-${door}`, 'allow')).toMatch(/^reached/);
      expect((await server.reached()).map((h) => h.split(' ')[1])).toContain(`/ok-${door}`);
    },
  );

  it('still refuses nested workers, which would escape the guard', async () => {
    expect(await probe('nested-worker', '/w.js', 'allow')).toMatch(/^blocked: NetworkDeniedError/);
  });
});

describe('network: a function evaluated on the page', () => {
  const onlyAllowed: NetworkPolicy = (url) => new URL(url).pathname.startsWith('/allowed');

  it.each(['fetch', 'xhr', 'xhr-sync', 'websocket'])('%s: allowed URLs pass, others are refused', async (door) => {
    // Only fetch-like doors can wait for the page's answer (a message): the others are refused,
    // allowed URL or not.
    if (door !== 'fetch') {
      for (const path of ['/denied', '/allowed'])
        expect(await probe(door, path, onlyAllowed)).toMatch(
          /^blocked: NetworkDeniedError: .*cannot wait for the policy function on the page/,
        );
      expect(await hits()).toEqual([]);
      return;
    }
    expect(await probe(door, '/denied', onlyAllowed)).toMatch(
      /^blocked: NetworkDeniedError: .*refused by the policy function/,
    );
    expect(await probe(door, '/allowed', onlyAllowed)).toMatch(/^reached/);
    expect((await hits()).map((h) => h.split(' ')[1])).toEqual(['/allowed']);
  });

  it('checks fetch and refuses synchronous doors it cannot ask about', async () => {
    expect(await probe('fetch', '/allowed-async', onlyAllowed, plainWorker)).toMatch(/^reached/);
    expect(await probe('fetch', '/nope', onlyAllowed, plainWorker)).toMatch(/^blocked/);
    expect(await probe('xhr-sync', '/allowed-sync', onlyAllowed, plainWorker)).toMatch(
      /^blocked: NetworkDeniedError: .*cannot wait for the policy function on the page/,
    );
    expect((await hits()).map((h) => h.split(' ')[1])).toEqual(['/allowed-async']);
  });

  it('cannot be answered by tool code tampering with the built-ins the question goes through', async () => {
    expect(await probe('poisoned-map', '/map', onlyAllowed, plainWorker)).toMatch(
      /^blocked: NetworkDeniedError: .*refused by the policy function/,
    );
    expect(await hits()).toEqual([]);
  });

  it('cannot be answered by tool code forging the page’s message', async () => {
    expect(await probe('forged-answer', '/forged', onlyAllowed, plainWorker)).toMatch(
      /^blocked: NetworkDeniedError: .*refused by the policy function/,
    );
    expect(await hits()).toEqual([]);
  });
});
