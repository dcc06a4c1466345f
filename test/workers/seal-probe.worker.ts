/// <reference lib="webworker" />
// Every door out of a tool worker, tried with the built-ins a module kept from before moat-sdk/worker
// (early-originals.ts, imported first). What reaches the probe server is counted there.
// First, as a side-effect import (which no formatter moves): modules are evaluated in the order
// they are first imported, so this one runs before moat-sdk/worker installs its guard.
import './early-originals';
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod';
import { early } from './early-originals';

/** Resolves with what happened first, or rejects after `ms`: each door says open or error. */
function settle<T>(events: (done: (what: string) => void, fail: (e: unknown) => void) => T, ms = 5_000) {
  return new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no event within ${ms} ms`)), ms);
    events(
      (what) => {
        clearTimeout(timer);
        resolve(what);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });
}

async function attempt(door: string, url: string): Promise<string> {
  switch (door) {
    case 'fetch':
      return (await early.fetch(url)).text();
    case 'xhr':
    case 'xhr-sync': {
      const xhr = new early.XMLHttpRequest();
      early.xhrOpen.call(xhr, 'GET', url, door === 'xhr');
      if (door === 'xhr-sync') {
        early.xhrSend.call(xhr);
        return xhr.responseText;
      }
      return settle((done, fail) => {
        xhr.onload = () => done(xhr.responseText);
        xhr.onerror = () => fail(new Error('xhr error'));
        early.xhrSend.call(xhr);
      });
    }
    case 'websocket': {
      const socket = new early.WebSocket(url.replace(/^http/, 'ws'));
      return settle((done, fail) => {
        socket.onopen = () => done('open');
        socket.onerror = () => fail(new Error('websocket error'));
      });
    }
    case 'websocket-stream': {
      if (!early.WebSocketStream) return 'absent';
      await new early.WebSocketStream(url.replace(/^http/, 'ws')).opened;
      return 'open';
    }
    case 'eventsource': {
      const source = new early.EventSource(url);
      return settle((done, fail) => {
        source.onmessage = (e) => done(String(e.data));
        source.onerror = () => fail(new Error('eventsource error'));
      }).finally(() => source.close());
    }
    case 'webtransport': {
      if (!early.WebTransport) return 'absent';
      await new early.WebTransport(url.replace(/^http:/, 'https:')).ready;
      return 'ready';
    }
    case 'import':
      await import(/* @vite-ignore */ url);
      return 'imported';
    case 'import-scripts':
      if (!early.importScripts) return 'absent (a module worker)';
      early.importScripts(url);
      return 'imported';
    case 'worker': {
      // The probe server answers `.js` with a module, which a classic worker cannot parse: its
      // error event comes once the script was fetched (or refused). The request is what counts.
      const nested = new early.Worker(url);
      return settle((done) => {
        nested.onerror = () => done('error event');
      });
    }
    case 'blob-worker': {
      // A worker this one makes from a blob: it fetches the URL with its own (unpatched) fetch.
      const source = `fetch(${JSON.stringify(url)}).then(() => postMessage('reached'), (e) => postMessage('blocked: ' + e));`;
      const nested = new early.Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      return settle((done, fail) => {
        nested.onmessage = (e) => (String(e.data).startsWith('reached') ? done('reached') : fail(new Error(e.data)));
        nested.onerror = (e) => fail(new Error(`nested worker error: ${e.message}`));
      });
    }
    case 'shared-worker':
      if (!early.SharedWorker) return 'absent';
      new early.SharedWorker(url);
      return 'started';
    case 'font':
      await early.fontLoad.call(new early.FontFace('probe', `url(${url})`));
      return 'loaded';
    default:
      throw new Error(`unknown door ${door}`);
  }
}

/** The app's own storage: `name` is a database and a cache the page made, and a channel it listens on. */
async function storage(door: string, name: string): Promise<string> {
  switch (door) {
    case 'indexeddb': {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = early.indexedDB.open(name);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const stores = [...db.objectStoreNames];
      db.close();
      return `stores ${stores.join(',')}`;
    }
    case 'caches':
      if (!early.caches) return 'absent';
      return (await early.caches.keys()).includes(`${name}-cache`) ? "the app's cache" : 'not the app cache';
    case 'broadcast': {
      const channel = new early.BroadcastChannel(name);
      channel.postMessage('from the tool');
      channel.close();
      return 'posted';
    }
    case 'secure-context':
      return [
        isSecureContext ? 'secure' : 'not secure',
        typeof crypto.subtle === 'object' && 'subtle',
        typeof crypto.randomUUID === 'function' && 'randomUUID',
      ]
        .filter(Boolean)
        .join(', ');
    case 'cookies':
      if (!early.cookieStore) return 'absent';
      return `cookies ${(await early.cookieStore.getAll()).length}`;
    default:
      throw new Error(`unknown door ${door}`);
  }
}

/** CSP violations the browser reported in this worker while a door was tried. */
const violations: string[] = [];
self.addEventListener('securitypolicyviolation', (e) => violations.push(e.effectiveDirective));

const tried = (run: () => Promise<string>) => async () => {
  violations.length = 0;
  let outcome: string;
  try {
    outcome = `reached: ${String(await run()).slice(0, 40)}`;
  } catch (error) {
    const e = error as Error;
    outcome = `blocked: ${e?.name}: ${e?.message}`;
  }
  return violations.length ? `${outcome} [csp: ${[...new Set(violations)].join(',')}]` : outcome;
};

serveTools([
  defineTool({
    name: 'door',
    description: 'Try to reach a URL through one network door.',
    input: z.object({ door: z.string(), url: z.string() }),
    run: ({ door, url }) => tried(() => attempt(door, url))(),
  }),
  defineTool({
    name: 'storage',
    description: "Try to read the app's own storage.",
    input: z.object({ door: z.string(), name: z.string() }),
    run: ({ door, name }) => tried(() => storage(door, name))(),
  }),
]);
