/// <reference lib="webworker" />
// The doors a tool might try to reach the network through. Shared by the plain and CSP workers.
import { defineTool } from 'moat-sdk/worker';
import * as z from 'zod';

/**
 * Resolves with the first of `events` that `target` fires, or with 'no event' after `ms` (a bound,
 * not a wait): a door has tried its URL by the time it says open, error or close.
 */
function firstOf(target: EventTarget, events: string[], ms = 5_000): Promise<string> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve('no event'), ms);
    for (const type of events)
      target.addEventListener(type, () => {
        clearTimeout(timer);
        resolve(type);
      });
  });
}

/** A synchronous XMLHttpRequest GET: the response text. */
function syncGet(url: string): string {
  const xhr = new XMLHttpRequest();
  xhr.open('GET', url, false);
  xhr.send();
  return xhr.responseText;
}

/** A value that reads as a harmless local URL the first time it is read, and as `then` after. */
function flip(then: string): string {
  let reads = 0;
  return { toString: () => (reads++ === 0 ? 'data:,harmless' : then) } as unknown as string;
}

/** An iterable that yields a harmless local URL the first time it is walked, and `then` after. */
function flipList(then: string): string[] {
  let walks = 0;
  return {
    *[Symbol.iterator]() {
      yield walks++ === 0 ? 'data:,harmless' : then;
    },
  } as unknown as string[];
}

async function attempt(door: string, url: string): Promise<string> {
  switch (door) {
    case 'fetch':
      return (await fetch(url)).text();
    case 'fetch-prototype': {
      const proto = Object.getPrototypeOf(Object.getPrototypeOf(self)) as { fetch: typeof fetch };
      return (await proto.fetch.call(self, url)).text();
    }
    case 'fetch-delete': {
      delete (self as { fetch?: unknown }).fetch;
      return (await fetch(url)).text();
    }
    case 'fetch-redefine': {
      Object.defineProperty(self, 'fetch', { value: () => 'replaced' });
      return 'redefined';
    }
    case 'forged-answer': {
      // Answer the worker's own network question as if the page had allowed it.
      const pending = fetch(url);
      // The subject: forged answers dispatched a task later, while the page's answer is on its way.
      await new Promise((r) => setTimeout(r, 0));
      for (let ask = 0; ask < 10; ask++)
        self.dispatchEvent(new MessageEvent('message', { data: { t: 'net', ask, allow: true } }));
      return (await pending).text();
    }
    case 'fetch-request':
      return (await fetch(new Request(url))).text();
    case 'xhr':
      return new Promise((resolve, reject) => {
        const xhr = new XMLHttpRequest();
        xhr.open('GET', url);
        xhr.onload = () => resolve(xhr.responseText);
        xhr.onerror = () => reject(new Error('xhr error'));
        xhr.send();
      });
    case 'xhr-sync':
      return syncGet(url);
    case 'websocket': {
      const ws = new WebSocket(url.replace('http', 'ws'));
      const said = await firstOf(ws, ['open', 'error', 'close']);
      ws.close();
      return `constructed, then ${said}`;
    }
    case 'websocket-constructor': {
      const Original = WebSocket.prototype.constructor as typeof WebSocket;
      const ws = new Original(url.replace('http', 'ws'));
      const said = await firstOf(ws, ['open', 'error', 'close']);
      ws.close();
      return `constructed, then ${said}`;
    }
    case 'eventsource': {
      const es = new EventSource(url);
      const said = await firstOf(es, ['message', 'error']);
      es.close();
      return `constructed, then ${said}`;
    }
    case 'import-scripts':
      importScripts(url);
      return 'imported';
    case 'nested-worker': {
      // The probe server answers with a module, which a classic worker cannot parse: its error
      // event comes once the script was fetched.
      return `started, then ${await firstOf(new Worker(url), ['error', 'message'])}`;
    }
    case 'cache': {
      const cache = await caches.open('probe');
      await cache.add(url);
      return 'cached';
    }
    case 'font': {
      const font = new FontFace('probe', `url(${url})`);
      await font.load();
      return 'loaded';
    }
    // The same doors, with a URL that changes between the guard's read and the browser's.
    case 'fetch-flip':
      return (await fetch(flip(url))).text();
    case 'xhr-flip':
      return syncGet(flip(url));
    case 'websocket-flip': {
      const ws = new WebSocket(flip(url.replace('http', 'ws')));
      const said = await firstOf(ws, ['open', 'error', 'close']);
      ws.close();
      return `constructed, then ${said}`;
    }
    case 'eventsource-flip': {
      const es = new EventSource(flip(url));
      const said = await firstOf(es, ['message', 'error']);
      es.close();
      return `constructed, then ${said}`;
    }
    case 'cache-flip': {
      const cache = await caches.open('probe');
      await cache.add(flip(url));
      return 'cached';
    }
    case 'cache-addall-flip': {
      const cache = await caches.open('probe');
      await cache.addAll(flipList(url));
      return 'cached';
    }
    // A font's source: a second url() after a harmless one, a source that is not a string,
    // a function name in capitals (CSS does not mind), or one that changes between reads.
    case 'font-second-url': {
      const font = new FontFace('probe', `url(data:,x), url(${url})`);
      // Settled once every source was tried.
      await font.load().catch(() => {});
      return 'loaded';
    }
    case 'font-object-source': {
      const font = new FontFace('probe', { toString: () => `url(${url})` } as unknown as string);
      // Settled once every source was tried.
      await font.load().catch(() => {});
      return 'loaded';
    }
    case 'font-capitals': {
      const font = new FontFace('probe', `URL(${url})`);
      // Settled once every source was tried.
      await font.load().catch(() => {});
      return 'loaded';
    }
    // A notification's icon, image and badge are fetched by the browser (once the origin may notify).
    case 'notification': {
      const shown = new Notification('probe', { icon: url });
      return `constructed, then ${await firstOf(shown, ['show', 'error'])}`;
    }
    case 'notification-flip': {
      let reads = 0;
      const options = {
        get image() {
          return reads++ === 0 ? 'data:,harmless' : url;
        },
      };
      const shown = new Notification('probe', options as NotificationOptions);
      return `constructed, then ${await firstOf(shown, ['show', 'error'])}`;
    }
    // Tampering with the intrinsics the guard itself might use.
    case 'poisoned-iterator': {
      const original = Array.prototype[Symbol.iterator];
      Array.prototype[Symbol.iterator] = function* () {} as typeof original;
      try {
        new WebSocket(url.replace('http', 'ws'));
        return syncGet(url);
      } finally {
        Array.prototype[Symbol.iterator] = original;
      }
    }
    case 'poisoned-promise': {
      const { then } = Promise.prototype;
      const fake = function (this: Promise<unknown>, ok?: (v: unknown) => unknown, bad?: (e: unknown) => unknown) {
        return then.call(
          this,
          (v: unknown) => ok?.(v && typeof v === 'object' && 'allow' in v ? { allow: true } : v),
          bad,
        );
      };
      Object.defineProperty(Promise.prototype, 'then', { value: fake, writable: true, configurable: true });
      Object.defineProperty(Promise.prototype, 'constructor', { value: Object, writable: true, configurable: true });
      try {
        return await (await fetch(url)).text();
      } finally {
        Object.defineProperty(Promise.prototype, 'then', { value: then, writable: true, configurable: true });
        Object.defineProperty(Promise.prototype, 'constructor', { value: Promise, writable: true, configurable: true });
      }
    }
    case 'poisoned-startswith': {
      const original = String.prototype.startsWith;
      String.prototype.startsWith = () => true; // every URL would look like data:
      try {
        return syncGet(url);
      } finally {
        String.prototype.startsWith = original;
      }
    }
    case 'poisoned-request-url': {
      const original = Object.getOwnPropertyDescriptor(Request.prototype, 'url') as PropertyDescriptor;
      Object.defineProperty(Request.prototype, 'url', { get: () => 'data:,harmless', configurable: true });
      try {
        return await (await fetch(url)).text();
      } finally {
        Object.defineProperty(Request.prototype, 'url', original);
      }
    }
    // Against a policy function: the page's answer forged through tampered built-ins.
    case 'poisoned-atomics': {
      const { load } = Atomics;
      Atomics.load = (() => 1) as unknown as typeof Atomics.load; // "the page said yes"
      try {
        return syncGet(url);
      } finally {
        Atomics.load = load;
      }
    }
    case 'poisoned-map': {
      const { set } = Map.prototype;
      Map.prototype.set = function (this: Map<unknown, unknown>, key: unknown, value: unknown) {
        // Catch the server's pending question and answer it "allowed" at once.
        if (typeof value === 'function') queueMicrotask(() => (value as (allow: boolean) => void)(true));
        return set.call(this, key, value);
      };
      try {
        return await (await fetch(url)).text();
      } finally {
        Map.prototype.set = set;
      }
    }
    case 'dynamic-import':
      await import(/* @vite-ignore */ url);
      return 'imported';
    // Not the network: the origin's own storage. `url` names a database the page made.
    case 'origin-storage': {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open(url);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const stores = [...db.objectStoreNames];
      db.close();
      return `stores ${stores.join(',')}; caches ${(await caches.keys()).join(',')}`;
    }
    default:
      throw new Error(`unknown door ${door}`);
  }
}

export const probe = defineTool({
  name: 'probe',
  description: 'Try to reach a URL through one door; say what happened.',
  input: z.object({ door: z.string(), url: z.string() }),
  run: async ({ door, url }) => {
    try {
      const result = await attempt(door, url);
      return `reached: ${String(result).slice(0, 40)}`;
    } catch (error) {
      const e = error as Error;
      return `blocked: ${e?.name}: ${e?.message}`;
    }
  },
});
