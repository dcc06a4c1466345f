// The second wall in a plain worker: the realm's locks are taken when moat-sdk/worker is evaluated,
// and the guard covers the doors issue #28 names (WebSocketStream, WebTransport, SharedWorker).
// Each probe would succeed without the lock or the guard: the 'allow' cases show the doors open.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkerCrashedError } from '../src/errors/worker-crashed-error';
import { WorkerStartError } from '../src/errors/worker-start-error';
import { createWorkerPool, type NetworkPolicy, type WorkerPool, type WorkerPoolOptions } from '../src/pool/worker-pool';
import { type Probe, probeTag } from '../test/probe-hits';

let pool: WorkerPool | undefined;
/** The probe server, under this test's own tag. */
let server: Probe;
let n = 0;

const locksWorker = () => new Worker(new URL('../test/workers/locks.worker.ts', import.meta.url), { type: 'module' });
const earlyWorker = () =>
  new Worker(new URL('../test/workers/locks-early.worker.ts', import.meta.url), { type: 'module' });
const unlockableWorker = () =>
  new Worker(new URL('../test/workers/locks-unlockable.worker.ts', import.meta.url), { type: 'module' });

function start(options: Partial<WorkerPoolOptions> = {}): WorkerPool {
  pool = createWorkerPool({ worker: locksWorker, size: 1, timeoutMs: 10_000, ...options });
  return pool;
}
async function run(name: string, args: Record<string, unknown> = {}): Promise<string> {
  if (!pool) throw new Error('no pool started');
  return (await pool.call({ id: `lock-${++n}`, name, args })).content;
}
/** This test's requests that reached the server (each door tried has settled by then). */
const hits = () => server.hits();

beforeEach(() => {
  server = probeTag();
});
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('tool code imported after moat-sdk/worker', () => {
  it('finds postMessage and close locked before serveTools runs, and never sees the page’s messages', async () => {
    start();
    await run('report');
    await run('report'); // more of the page's messages, which no listener of tool code may see
    const report = JSON.parse(await run('report'));
    expect(report.before).toEqual({
      postMessage: 'threw TypeError',
      prototypePostMessage: 'threw TypeError',
      closeAssigned: 'threw TypeError',
      closeRedefined: 'threw TypeError',
    });
    // Its own two listeners on the global, and its patched addEventListener, saw no message; the
    // server's listener was added before it, through the original addEventListener.
    expect(report.seen).toBe(0);
    expect(report.addedOnGlobal).toEqual([]);
    // Nor was it handed a port to the page.
    expect(report.portsHandedOver).toBe(0);
  });

  it('cannot post to the page, by any path', async () => {
    start();
    expect(await run('post')).toBe('threw TypeError, threw TypeError, threw TypeError');
  });

  it('cannot close the worker unnoticed: the call fails with WorkerCrashedError saying so', async () => {
    start();
    const closing = pool?.call({ id: 'close', name: 'close', args: {} });
    await expect(closing).rejects.toBeInstanceOf(WorkerCrashedError);
    await expect(closing).rejects.toThrow(/closed itself/);
  });

  // The page answers a policy question with a message.
  const onlyAllowed: NetworkPolicy = (url) => new URL(url).pathname.startsWith('/allowed');

  it('cannot read the page’s refusal as a yes by redefining MessageEvent.prototype.data', async () => {
    start({ network: onlyAllowed });
    expect(await run('forge-net', { url: server.url('/denied') })).toMatch(
      /^blocked: NetworkDeniedError: .*refused by the policy function/,
    );
    expect(await run('forge-net', { url: server.url('/allowed') })).toBe('reached: reached');
    expect(await hits()).toEqual(['GET /allowed']);
  });

  it('cannot answer for the page with a getter on Object.prototype', async () => {
    start({ network: onlyAllowed });
    expect(await run('inherited-sync', { url: server.url('/denied') })).toMatch(
      /^blocked: NetworkDeniedError: .*refused by the policy function/,
    );
    expect(await hits()).toEqual([]);
  });
});

describe('code that ran before moat-sdk/worker', () => {
  it('keeps what it took: it sees the page’s messages and posts with the postMessage it kept (documented)', async () => {
    pool = createWorkerPool({ worker: earlyWorker, size: 1, timeoutMs: 10_000 });
    expect(await run('early')).toMatch(/^seen [1-9]\d*; posted$/);
  });

  it('cannot leave postMessage unlocked: a worker where the lock cannot be taken does not start', async () => {
    pool = createWorkerPool({ worker: unlockableWorker, size: 1, timeoutMs: 10_000, startTimeoutMs: 5_000 });
    await expect(pool.call({ id: 'noop', name: 'noop', args: {} })).rejects.toBeInstanceOf(WorkerStartError);
  });
});

describe('the doors issue #28 names', () => {
  it("are denied under 'deny': WebSocketStream and WebTransport exist in a dedicated worker; SharedWorker does not", async () => {
    start({ network: 'deny' });
    for (const door of ['websocketstream', 'webtransport'])
      expect(await run('door', { door, url: server.url(`/${door}`) })).toMatch(
        /^blocked: NetworkDeniedError: .*\(policy 'deny'\)/,
      );
    expect(await run('door', { door: 'sharedworker', url: server.url('/shared.js') })).toBe('absent');
    expect(await hits()).toEqual([]);
  });

  it('are refused under a policy function, allowed URL or not: their constructors cannot wait for the page', async () => {
    start({ network: (url) => new URL(url).pathname.startsWith('/allowed') });
    for (const door of ['websocketstream', 'webtransport'])
      for (const path of [`/denied-${door}`, `/allowed-${door}`])
        expect(await run('door', { door, url: server.url(path) })).toMatch(
          /^blocked: NetworkDeniedError: .*cannot wait for the policy function on the page/,
        );
    expect(await hits()).toEqual([]);
  });

  it("reach the server under 'allow' (the probes work)", async () => {
    start({ network: 'allow' });
    expect(await run('door', { door: 'websocketstream', url: server.url('/ok-websocketstream') })).toBe(
      'reached: constructed',
    );
    expect(await hits()).toEqual(['UPGRADE /ok-websocketstream']);
    expect(await run('door', { door: 'webtransport', url: server.url('/ok-webtransport') })).toBe(
      'reached: constructed',
    );
    // Its QUIC packets carry no tag (other tests' are counted too): the denied cases above are
    // judged by their refusal.
    await expect.poll(() => server.hits({ udp: true }), { timeout: 5_000 }).toContain('UDP');
  });
});
