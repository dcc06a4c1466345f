import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { call } from '../../test/pool-helpers';
import { type Probe, probeTag } from '../../test/probe-hits';
import probeUrl from '../../test/workers/seal-probe.worker.ts?worker&url';
import { sealedFrameCsp } from '../frame/framed-worker';
import { SandboxedFrame } from '../frame/sandboxed-frame';
import { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from './worker-pool';

// What each mode stops (docs/isolation.md), probed with the built-ins a module kept from before
// moat-sdk/worker (plain: the JavaScript guard cannot stop those, so what stops them is the browser's
// seal; sealed: nothing runs before Moat's runtime, so a bare script in the frame's policy shows it).
// The probe server (test/probe-server.ts) counts every request that reaches it; each test reads
// its own (test/probe-hits.ts), and the UDP packets ('UDP', a WebTransport's), which carry no tag.
const NETWORK_DOORS = [
  'fetch',
  'xhr',
  'xhr-sync',
  'websocket',
  'websocket-stream',
  'eventsource',
  'webtransport',
  'import',
  'import-scripts',
  'worker',
  'blob-worker',
  'shared-worker',
  'font',
] as const;
const STORAGE_DOORS = ['indexeddb', 'caches', 'broadcast', 'cookies', 'secure-context'] as const;

const plain = () => new Worker(new URL('../../test/workers/seal-probe.worker.ts', import.meta.url), { type: 'module' });
const pools: WorkerPool[] = [];
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});
function poolOf(worker: WorkerPoolOptions['worker']): WorkerPool {
  const pool = createWorkerPool({ worker, size: 1, timeoutMs: 15_000, network: 'deny' });
  pools.push(pool);
  return pool;
}

/** Each door tried once, one after the other; what each said. */
async function tryDoors(pool: WorkerPool, probe: Probe): Promise<Record<string, string>> {
  const said: Record<string, string> = {};
  for (const door of NETWORK_DOORS) {
    said[door] = (await pool.call(call('door', { door, url: probe.url(`/${door}.js`) }))).content as string;
  }
  return said;
}

describe("network: 'deny'", () => {
  it("sealed: the frame's own policy refuses code with the original built-ins and no guard at all", async () => {
    // Sealed, Moat's runtime runs before any tool code, so no tool holds an unguarded built-in:
    // the frame's policy is the wall beneath, shown here with a bare script in a frame of the
    // pool's own policy, trying the doors with the originals.
    const probe = probeTag();
    const frame = new SandboxedFrame({ csp: sealedFrameCsp([]), title: 'bare' });
    const channel = new MessageChannel();
    frame.spawn(
      channel.port2,
      `onmessage = async (e) => {
        const port = e.ports[0];
        const urls = ${JSON.stringify(['fetch', 'xhr', 'import', 'websocket'].map((d) => probe.url(`/${d}.js`)))};
        const said = [];
        const tryIt = async (f) => { try { await f(); said.push('reached'); } catch (error) { said.push('blocked: ' + error); } };
        await tryIt(() => fetch(urls[0]));
        await tryIt(() => new Promise((ok, no) => { const x = new XMLHttpRequest(); x.onload = ok; x.onerror = () => no(new Error('xhr error')); x.open('GET', urls[1]); x.send(); }));
        await tryIt(() => import(urls[2]));
        await tryIt(() => new Promise((ok, no) => { const w = new WebSocket(urls[3].replace('http', 'ws')); w.onopen = ok; w.onerror = () => no(new Error('websocket error')); }));
        port.postMessage(said);
      };`,
    );
    const said = await new Promise<string[]>((resolve) => {
      channel.port1.onmessage = (event) => resolve(event.data);
    });
    frame.close();
    expect(said).toHaveLength(4);
    for (const answer of said) expect(answer).toMatch(/^blocked: /);
    for (const answer of said) expect(answer).not.toMatch(/NetworkDeniedError/);
    expect(await probe.hits()).toEqual([]);
  });

  it('sealed (the default): no door reaches the probe server', async () => {
    const probe = probeTag();
    const said = await tryDoors(poolOf(probeUrl), probe);
    // A WebTransport's packets ('UDP') cannot be told from those of other files' probes: that door
    // is judged by its refusal below. Here sealed, none was seen in runs of this file alone.
    expect(await probe.hits()).toEqual([]);
    expect(said.webtransport).toMatch(/^blocked: /);
    for (const door of NETWORK_DOORS) expect(said[door], door).not.toMatch(/^reached: (?!absent)/);
    // Moat's runtime (and its JavaScript guard) ran before this module: its doors are guarded,
    // and the frame's policy stands beneath (the test above).
    expect(said['blob-worker']).toMatch(/^blocked: /);
    // Dedicated workers have no SharedWorker at all.
    expect(said['shared-worker']).toBe('reached: absent');
  });

  it('plain: a module that ran before moat-sdk/worker reaches the server through these doors', async () => {
    const probe = probeTag();
    const said = await tryDoors(poolOf(plain), probe);
    // A WebTransport's QUIC packets are counted as 'UDP' by the probe server.
    const reached = new Set(
      (await probe.hits({ udp: true })).map((h) =>
        h === 'UDP' ? 'webtransport' : h.split(' ')[1]?.slice(1, -'.js'.length),
      ),
    );
    // All but these: a nested worker of another origin's script (refused before any request),
    // SharedWorker (absent), importScripts (a module worker refuses it). WebTransport's packets
    // arrive (nothing answers them).
    const closedAnyway: string[] = ['worker', 'shared-worker', 'import-scripts'];
    expect([...reached].sort()).toEqual(NETWORK_DOORS.filter((door) => !closedAnyway.includes(door)).sort());
    expect(said.fetch).toBe('reached: export const reached = true;');
    expect(said['import-scripts']).toMatch(/^blocked: TypeError: .*importScripts/);
  });
});

describe("the app's own storage", () => {
  const name = `app-secrets-${Math.random().toString(36).slice(2)}`;
  const heard: unknown[] = [];
  let channel: BroadcastChannel;

  beforeEach(async () => {
    await new Promise<void>((resolve, reject) => {
      const request = indexedDB.open(name);
      request.onupgradeneeded = () => request.result.createObjectStore('conversations');
      request.onsuccess = () => {
        request.result.close();
        resolve();
      };
      request.onerror = () => reject(request.error);
    });
    await caches.open(`${name}-cache`);
    channel = new BroadcastChannel(name);
    channel.onmessage = (e) => heard.push(e.data);
    return async () => {
      channel.close();
      indexedDB.deleteDatabase(name);
      await caches.delete(`${name}-cache`);
    };
  });

  /** Every storage door tried; then a message of the page's own on the channel, to know the tool's would have come first. */
  async function tryStorage(pool: WorkerPool) {
    heard.length = 0;
    const said: Record<string, string> = {};
    for (const door of STORAGE_DOORS) said[door] = (await pool.call(call('storage', { door, name }))).content as string;
    const marker = new BroadcastChannel(name);
    const markerHeard = new Promise<void>((resolve) => {
      channel.addEventListener('message', (e) => e.data === 'marker' && resolve(), { once: false });
    });
    marker.postMessage('marker');
    await markerHeard;
    marker.close();
    return said;
  }

  it('sealed: unreadable, and the page hears nothing from the tool', async () => {
    const said = await tryStorage(poolOf(probeUrl));
    expect(said.indexeddb).toMatch(/^blocked: SecurityError: /);
    expect(said.caches).toMatch(/^blocked: SecurityError: /);
    expect(said.cookies).toMatch(/^blocked: SecurityError: |^reached: absent$/);
    expect(heard).toEqual(['marker']);
    // Still a secure context (each worker starts from a data: URL): crypto.subtle is there.
    expect(said['secure-context']).toBe('reached: secure, subtle, randomUUID');
  });

  it("plain: the app's database, caches and channel are the tool's too", async () => {
    const said = await tryStorage(poolOf(plain));
    expect(said.indexeddb).toBe('reached: stores conversations');
    expect(said.caches).toBe("reached: the app's cache");
    expect(heard).toEqual(['from the tool', 'marker']);
  });
});
