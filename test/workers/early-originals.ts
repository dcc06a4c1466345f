/// <reference lib="webworker" />
// Evaluated before moat-sdk/worker (the probe worker imports it first): the built-ins a module that
// ran early would keep, before the JavaScript guard replaces them. A seal the browser enforces
// holds against these; a guard of patched globals cannot.
const g = globalThis as unknown as Record<string, unknown>;
const X = XMLHttpRequest.prototype;

export const early = {
  fetch: fetch.bind(globalThis),
  xhrOpen: X.open,
  xhrSend: X.send,
  XMLHttpRequest,
  WebSocket,
  WebSocketStream: g.WebSocketStream as (new (url: string) => { opened: Promise<unknown> }) | undefined,
  EventSource,
  WebTransport: g.WebTransport as (new (url: string) => { ready: Promise<unknown> }) | undefined,
  Worker,
  SharedWorker: g.SharedWorker as (new (url: string) => unknown) | undefined,
  FontFace,
  fontLoad: FontFace.prototype.load,
  importScripts: typeof importScripts === 'function' ? importScripts.bind(globalThis) : undefined,
  indexedDB,
  // Reading it throws in a worker started from a data: URL (a sealed one): then it is the read.
  caches: (() => {
    try {
      return g.caches as CacheStorage | undefined;
    } catch (error) {
      return { keys: () => Promise.reject(error) } as unknown as CacheStorage;
    }
  })(),
  BroadcastChannel,
  cookieStore: g.cookieStore as { getAll(): Promise<unknown[]> } | undefined,
};
