// The seal, door by door. Each probe script tries to reach a second local server (which counts
// what reaches it) or the page's storage; the same script in an ordinary worker of the page
// gets through, which is what shows that the probe would succeed without the seal.
import { afterAll, beforeEach, describe, expect, inject, it } from 'vitest';
import { createCodeSandbox } from './code-sandbox';
import { prepareScript } from './prepare';

const probeUrl = inject('probeUrl');
const hits = async (): Promise<string[]> => (await fetch(`${probeUrl}/__hits`)).json();

const doors: Record<string, string> = {
  fetch: `await fetch(SERVER + '/fetch'); 'reached'`,
  xhr: `await new Promise((res, rej) => { const x = new XMLHttpRequest(); x.open('GET', SERVER + '/xhr'); x.onload = () => res('reached'); x.onerror = () => rej(new Error('XMLHttpRequest failed')); x.send(); })`,
  websocket: `await new Promise((res, rej) => { const ws = new WebSocket(SERVER.replace('http', 'ws') + '/ws'); ws.onopen = () => res('reached'); ws.onerror = () => rej(new Error('WebSocket failed')); })`,
  eventsource: `await new Promise((res, rej) => { const es = new EventSource(SERVER + '/events'); es.onmessage = () => { es.close(); res('reached'); }; es.onerror = () => { es.close(); rej(new Error('EventSource failed')); }; })`,
  import: `await import(SERVER + '/import.js'); 'reached'`,
  importScripts: `importScripts(SERVER + '/importscripts.js'); 'reached'`,
  'nested worker': `await new Promise((res) => { new Worker(URL.createObjectURL(new Blob(['fetch(' + JSON.stringify(SERVER + '/nested') + ')']))); setTimeout(() => res('started'), 300); })`,
};

/** Run a door's script, prepared as the sandbox prepares it, in an ordinary blob worker of the page (no seal). */
function unsealed(code: string): Promise<string> {
  const body = `onmessage = async (e) => { try { postMessage('reached: ' + (await (0, eval)(e.data))); } catch (err) { postMessage('blocked: ' + err); } };`;
  const worker = new Worker(URL.createObjectURL(new Blob([body], { type: 'text/javascript' })));
  return new Promise<string>((resolve) => {
    worker.onmessage = (event) => {
      resolve(String(event.data));
      setTimeout(() => worker.terminate(), 400);
    };
    worker.postMessage(prepareScript(`const SERVER = ${JSON.stringify(probeUrl)};\n${code}`));
  });
}

const sandbox = createCodeSandbox({ timeoutMs: 5_000 });
afterAll(() => sandbox.close());
beforeEach(async () => {
  await fetch(`${probeUrl}/__reset`);
});

describe('the seal: the network', () => {
  for (const [door, code] of Object.entries(doors)) {
    it(`${door}: reaches the server from an ordinary worker, nothing from the sandbox`, async () => {
      await unsealed(code);
      await new Promise((r) => setTimeout(r, 400));
      expect((await hits()).length, 'the probe works without the seal').toBeGreaterThan(0);
      await fetch(`${probeUrl}/__reset`);
      const outcome = await sandbox.run(`const SERVER = ${JSON.stringify(probeUrl)};\n${code}`).then(
        (r) => `reached: ${JSON.stringify(r.value)}`,
        (e: Error) => `blocked: ${e.message}`,
      );
      await new Promise((r) => setTimeout(r, 400));
      expect(outcome).toMatch(/^blocked: \w*Error: /);
      expect(await hits()).toEqual([]);
    });
  }

  it('WebTransport: refused too', async () => {
    await expect(
      sandbox.run(`const t = new WebTransport('https://127.0.0.1:4433/wt'); await t.ready; 'reached'`),
    ).rejects.toThrow(/Error/);
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
    await new Promise((r) => setTimeout(r, 200));
    channel.close();
    expect(heard).toEqual([]);
  });

  it('no DOM, no window, none of the page globals', async () => {
    (globalThis as unknown as { pageSecret: string }).pageSecret = 'page-only';
    const { value } = await sandbox.run(
      `[typeof document, typeof window, typeof parent, typeof globalThis.pageSecret, typeof Worker, typeof SharedWorker, self.origin]`,
    );
    expect(value).toEqual(['undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'undefined', 'null']);
  });
});
