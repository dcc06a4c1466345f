// The seal, door by door. Each probe script tries to reach a second local server (which counts
// what reaches it) or the page's storage; the same script in an ordinary worker of the page
// gets through, which is what shows that the probe would succeed without the seal.
import { afterAll, describe, expect, it, vi } from 'vitest';
import { type Probe, probeTag } from '../../test/probe-hits';
import { createCodeSandbox } from './code-sandbox';
import { prepareScript } from './prepare';

/** Each door's script: `at(path)` is the probe server's URL for `path`, tagged for this test. */
const doors: Record<string, string> = {
  fetch: `await fetch(at('/fetch')); 'reached'`,
  xhr: `await new Promise((res, rej) => { const x = new XMLHttpRequest(); x.open('GET', at('/xhr')); x.onload = () => res('reached'); x.onerror = () => rej(new Error('XMLHttpRequest failed')); x.send(); })`,
  websocket: `await new Promise((res, rej) => { const ws = new WebSocket(at('/ws').replace('http', 'ws')); ws.onopen = () => res('reached'); ws.onerror = () => rej(new Error('WebSocket failed')); })`,
  eventsource: `await new Promise((res, rej) => { const es = new EventSource(at('/events')); es.onmessage = () => { es.close(); res('reached'); }; es.onerror = () => { es.close(); rej(new Error('EventSource failed')); }; })`,
  import: `await import(at('/import.js')); 'reached'`,
  importScripts: `importScripts(at('/importscripts.js')); 'reached'`,
  // Its request comes after the script's answer: the test waits for it at the server.
  'nested worker': `new Worker(URL.createObjectURL(new Blob(['fetch(' + JSON.stringify(at('/nested')) + ')']))); 'started'`,
};

/** A door's script, to reach the probe server under `probe`'s tag. */
const script = (probe: Probe, code: string) =>
  `const at = (path) => ${JSON.stringify(probe.server)} + path + ${JSON.stringify(probe.query)};\n${code}`;

/**
 * Run a script, prepared as the sandbox prepares it, in an ordinary blob worker of the page (no
 * seal); resolves with what it said, and the worker, still running (what it started goes on).
 */
function unsealed(code: string): Promise<{ said: string; worker: Worker }> {
  const body = `onmessage = async (e) => { try { postMessage('reached: ' + (await (0, eval)(e.data))); } catch (err) { postMessage('blocked: ' + err); } };`;
  const worker = new Worker(URL.createObjectURL(new Blob([body], { type: 'text/javascript' })));
  return new Promise((resolve) => {
    worker.onmessage = (event) => resolve({ said: String(event.data), worker });
    worker.postMessage(prepareScript(code));
  });
}

/** What the sandbox said to a script. */
const sealed = (code: string) =>
  sandbox.run(code).then(
    (r) => `reached: ${JSON.stringify(r.value)}`,
    (e: Error) => `blocked: ${e.message}`,
  );

const sandbox = createCodeSandbox({ timeoutMs: 5_000 });
afterAll(() => sandbox.close());

describe('the seal: the network', () => {
  for (const [door, code] of Object.entries(doors)) {
    it(`${door}: reaches the server from an ordinary worker, nothing from the sandbox`, async () => {
      const plain = probeTag();
      // What the script says there varies by door (the server hangs up on a WebSocket, answers
      // importScripts with a module); what counts is the request that reached the server.
      const { worker } = await unsealed(script(plain, code));
      try {
        expect(await plain.reached(), 'the probe works without the seal').not.toEqual([]);
      } finally {
        worker.terminate();
      }
      const probe = probeTag();
      expect(await sealed(script(probe, code))).toMatch(/^blocked: \w*Error: /);
      // Read at once: each script settles only once its request was answered or refused (so a
      // request that left has been counted), but the nested worker's, whose Worker the sandbox
      // does not have.
      expect(await probe.hits()).toEqual([]);
    });
  }

  it('WebTransport: its packets leave an ordinary worker; the sandbox has no WebTransport', async () => {
    const probe = probeTag();
    // Nothing answers QUIC there: the datagrams the server counts are the proof (they carry no
    // tag, so the sandbox's refusal is judged by what it says, not by the count).
    const code = `new WebTransport(at('/wt').replace('http:', 'https:')); 'constructed'`;
    const { said, worker } = await unsealed(script(probe, code));
    try {
      expect(said).toBe('reached: constructed');
      expect(await probe.reached({ udp: true }), 'the probe works without the seal').toContain('UDP');
    } finally {
      worker.terminate();
    }
    // Not a secure context (an opaque origin's blob worker): the constructor is not there at all.
    expect(await sealed(script(probe, code))).toBe('blocked: ReferenceError: WebTransport is not defined (line 2)');
  });
});

describe("the seal: the page's storage, DOM and globals", () => {
  it('IndexedDB, the Cache API and localStorage of the page are unreachable, and untouched', async () => {
    localStorage.setItem('moat-secret', 'page-only');
    const db = await new Promise<IDBDatabase>((resolve) => {
      const open = indexedDB.open('moat-secret-db', 1);
      open.onupgradeneeded = () => open.result.createObjectStore('s').put('page-only', 'k');
      open.onsuccess = () => resolve(open.result);
    });
    db.close();
    await expect(sandbox.run(`indexedDB.open('moat-secret-db')`)).rejects.toThrow(/SecurityError|not allowed|denied/i);
    // (The Cache API is not even there: an opaque origin is not a secure context.)
    await expect(sandbox.run(`await caches.keys()`)).rejects.toThrow(/caches is not defined|SecurityError/);
    expect((await sandbox.run(`typeof localStorage`)).value).toBe('undefined');
    expect(localStorage.getItem('moat-secret')).toBe('page-only');
    const names = (await indexedDB.databases()).map((d) => d.name);
    expect(names).toContain('moat-secret-db');
  });

  it("a BroadcastChannel of the page's origin hears nothing from the sandbox", async () => {
    const heard: unknown[] = [];
    const channel = new BroadcastChannel('moat-app');
    channel.onmessage = (event) => heard.push(event.data);
    expect(
      (await sandbox.run(`new BroadcastChannel('moat-app').postMessage('hello from the script'); 'sent'`)).value,
    ).toBe('sent');
    // Then a message of the page's own on the channel: the script's, sent first, would come first.
    const marker = new BroadcastChannel('moat-app');
    marker.postMessage('marker');
    await vi.waitFor(() => expect(heard).toContain('marker'), { timeout: 2_000 });
    marker.close();
    channel.close();
    expect(heard).toEqual(['marker']);
  });

  it('no DOM, no window, none of the page globals', async () => {
    (globalThis as unknown as { pageSecret: string }).pageSecret = 'page-only';
    const { value } = await sandbox.run(
      `[typeof document, typeof window, typeof parent, typeof globalThis.pageSecret, typeof Worker, typeof SharedWorker, self.origin]`,
    );
    expect(value).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'null']);
  });
});
