/// <reference lib="webworker" />
// The doors a tool might try to reach the network through. Shared by the plain and CSP workers.
import { defineTool } from 'moat/worker';
import * as z from 'zod';

const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
      await wait(0);
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
    case 'xhr-sync': {
      const xhr = new XMLHttpRequest();
      xhr.open('GET', url, false);
      xhr.send();
      return xhr.responseText;
    }
    case 'websocket': {
      const ws = new WebSocket(url.replace('http', 'ws'));
      await wait(200);
      ws.close();
      return 'constructed';
    }
    case 'websocket-constructor': {
      const Original = WebSocket.prototype.constructor as typeof WebSocket;
      new Original(url.replace('http', 'ws'));
      await wait(200);
      return 'constructed';
    }
    case 'eventsource': {
      const es = new EventSource(url);
      await wait(200);
      es.close();
      return 'constructed';
    }
    case 'import-scripts':
      importScripts(url);
      return 'imported';
    case 'nested-worker': {
      new Worker(url);
      await wait(100);
      return 'started';
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
    case 'dynamic-import':
      await import(/* @vite-ignore */ url);
      return 'imported';
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
