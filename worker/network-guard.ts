/// <reference lib="webworker" />
/**
 * The network guard: installed when `moat/worker` is first evaluated, before any tool runs, it
 * replaces every door from a worker to the network with a checked one, and locks the
 * replacements (non-writable, non-configurable, on the global and on the prototypes, with the
 * originals' `prototype.constructor` pointing at the guard), so tool code cannot put the
 * originals back. Until the pool states its policy, fetch-like requests wait and synchronous
 * ones are refused.
 *
 * Doors: `fetch` (global and `WorkerGlobalScope.prototype`), `XMLHttpRequest`, `WebSocket`,
 * `WebSocketStream`, `EventSource`, `WebTransport`, `importScripts`, nested `Worker` and
 * `SharedWorker`, `Cache.add`/`addAll`, `FontFace` URL sources, `Notification` icons. Each reads
 * its arguments once and passes on what it checked, never the caller's value (which could read
 * differently the second time). `data:` and `blob:` URLs are
 * local and always allowed. Not covered, and cannot be from JavaScript: dynamic `import()`
 * (serve the worker script with a Content-Security-Policy: see `workerContentSecurityPolicy`),
 * and references to the originals taken by code that ran before this module (import
 * `moat/worker` before any library you do not trust).
 */
import { NetworkDeniedError } from '../src/errors/network-denied-error';
import type { NetworkPolicyWire } from '../src/pool/protocol';

type Decision = { allow: true } | { allow: false; reason: string };
/** Ask the page; returns undefined when it cannot answer synchronously. */
export type AskPage = {
  sync?: (url: string, api: string) => boolean;
  async: (url: string, api: string) => Promise<boolean>;
};

let policy: NetworkPolicyWire | undefined;
let ask: AskPage | undefined;
let configured: () => void;
const ready = new Promise<void>((resolve) => {
  configured = resolve;
});
const scope = globalThis as unknown as Record<string, unknown>;
let installed = false;

/** Set the pool's policy, once. Later calls (say, a forged message from tool code) are refused. */
export function setNetworkPolicy(next: NetworkPolicyWire, asker: AskPage): void {
  if (policy) throw new Error('The network policy is already set for this worker');
  policy = next;
  ask = asker;
  configured();
}

function resolveUrl(input: unknown): string {
  try {
    if (typeof Request !== 'undefined' && input instanceof Request) return input.url;
    return new URL(String(input), (globalThis as { location?: { href: string } }).location?.href).href;
  } catch {
    return String(input);
  }
}

function isLocal(url: string): boolean {
  return url.startsWith('data:') || url.startsWith('blob:');
}

function decideSync(url: string, api: string): Decision {
  if (isLocal(url)) return { allow: true };
  if (!policy) return { allow: false, reason: 'the pool has not set the network policy yet' };
  if (policy.mode === 'allow') return { allow: true };
  if (policy.mode === 'deny') return { allow: false, reason: "policy 'deny'" };
  if (!ask?.sync)
    return {
      allow: false,
      reason: 'a synchronous API needs a cross-origin-isolated page to be checked by the policy function',
    };
  return ask.sync(url, api) ? { allow: true } : { allow: false, reason: 'refused by the policy function' };
}

async function decideAsync(url: string, api: string): Promise<Decision> {
  if (isLocal(url)) return { allow: true };
  await ready;
  if (policy?.mode === 'ask' && ask) {
    const allowed = ask.sync ? ask.sync(url, api) : await ask.async(url, api);
    return allowed ? { allow: true } : { allow: false, reason: 'refused by the policy function' };
  }
  return decideSync(url, api);
}

function denied(url: string, api: string, reason: string): NetworkDeniedError {
  return new NetworkDeniedError({ url, api, reason });
}

function check(input: unknown, api: string): void {
  const url = resolveUrl(input);
  const decision = decideSync(url, api);
  if (!decision.allow) throw denied(url, api, decision.reason);
}

function lock(target: object, key: PropertyKey, value: unknown): void {
  const existing = Object.getOwnPropertyDescriptor(target, key);
  Object.defineProperty(target, key, {
    value,
    writable: false,
    configurable: false,
    enumerable: existing?.enumerable ?? false,
  });
}

/**
 * What a guarded API is given, read once: the URLs it would reach, and the arguments to pass on
 * instead of the caller's (strings and copies, so nothing can read differently the second time).
 */
type Prepared = { urls: string[]; args: unknown[] };

/** The first argument as the URL, turned into a string once. */
const firstUrl = (args: unknown[]): Prepared => {
  if (args.length === 0) return { urls: [], args }; // the original throws its own TypeError
  const url = String(args[0]);
  return { urls: [url], args: [url, ...args.slice(1)] };
};

/** Replace a constructor: the guard reads the arguments once, checks their URLs, then builds the original. */
function guardConstructor(name: string, prepare: (args: unknown[]) => Prepared): void {
  const Original = scope[name] as (new (...args: unknown[]) => object) | undefined;
  if (typeof Original !== 'function') return;
  function guard(this: unknown, ...given: unknown[]): object {
    if (!new.target) throw new TypeError(`Failed to construct '${name}': Please use the 'new' operator.`);
    const { urls, args } = prepare(given);
    for (const url of urls) check(url, name);
    const target = Original as new (...a: unknown[]) => object;
    return Reflect.construct(target, args, (new.target as unknown) === guard ? target : new.target);
  }
  Object.defineProperty(guard, 'name', { value: name });
  (guard as { prototype: object }).prototype = Original.prototype;
  for (const key of Object.getOwnPropertyNames(Original)) {
    if (key === 'prototype' || key === 'name' || key === 'length') continue;
    const d = Object.getOwnPropertyDescriptor(Original, key);
    if (d) Object.defineProperty(guard, key, d);
  }
  lock(Original.prototype, 'constructor', guard);
  lock(scope, name, guard);
}

function denyConstructor(name: string): void {
  guardConstructor(name, () => {
    throw denied(name, name, 'tools cannot start workers (they would escape the network policy)');
  });
}

/**
 * The URLs a FontFace source string would load: every `url()` or `src()` (any case). A source
 * with CSS escapes or comments is not read here: the whole of it is checked as one URL, which
 * only an 'allow' policy (or a function that allows it) lets through.
 */
function fontSourceUrls(source: string): string[] {
  if (/[\\]|\/\*/.test(source)) return [source];
  const urls: string[] = [];
  for (const m of source.matchAll(/\b(?:url|src)\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/gi))
    urls.push((m[1] ?? m[2] ?? m[3] ?? '').trim());
  return urls;
}

/** The members of NotificationOptions; anything else is left out of the copy the browser sees. */
const NOTIFICATION_OPTIONS = [
  'dir',
  'lang',
  'body',
  'tag',
  'image',
  'icon',
  'badge',
  'vibrate',
  'timestamp',
  'renotify',
  'silent',
  'requireInteraction',
  'data',
  'actions',
] as const;
const NOTIFICATION_URLS = new Set<string>(['image', 'icon', 'badge']);

/** Every prototype on the global's chain that owns `key`, and the global itself. */
function holders(key: string): object[] {
  const out: object[] = [globalThis];
  for (let p = Object.getPrototypeOf(globalThis); p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    if (Object.hasOwn(p, key)) out.push(p);
  }
  return out;
}

/** Install the guard on this worker's global. Idempotent. */
export function installNetworkGuard(): void {
  if (installed) return;
  installed = true;

  // Requests are built once, with the original Request, and that (immutable) request is what
  // is checked and sent: an input whose string changes between two reads cannot slip through.
  const OriginalRequest = scope.Request as typeof Request;
  const originalFetch = scope.fetch as typeof fetch | undefined;
  if (typeof originalFetch === 'function') {
    const guardedFetch = async function fetch(input: RequestInfo | URL, init?: RequestInit) {
      const request = new OriginalRequest(input, init);
      const decision = await decideAsync(request.url, 'fetch');
      if (!decision.allow) throw denied(request.url, 'fetch', decision.reason);
      return originalFetch.call(globalThis, request);
    };
    for (const holder of holders('fetch')) lock(holder, 'fetch', guardedFetch);
  }

  const xhr = scope.XMLHttpRequest as { prototype: { open: (...args: unknown[]) => void } } | undefined;
  if (xhr) {
    const originalOpen = xhr.prototype.open;
    lock(xhr.prototype, 'open', function open(this: unknown, ...args: unknown[]) {
      if (args.length >= 2) {
        args[1] = String(args[1]);
        check(args[1], 'XMLHttpRequest');
      }
      return originalOpen.apply(this, args);
    });
  }

  for (const name of ['WebSocket', 'WebSocketStream', 'EventSource', 'WebTransport']) guardConstructor(name, firstUrl);
  denyConstructor('Worker');
  denyConstructor('SharedWorker');

  if (typeof scope.importScripts === 'function') {
    const originalImportScripts = scope.importScripts as (...urls: string[]) => void;
    const guardedImportScripts = function importScripts(...given: string[]) {
      const urls = given.map(String);
      for (const url of urls) check(url, 'importScripts');
      return originalImportScripts.apply(globalThis, urls);
    };
    for (const holder of holders('importScripts')) lock(holder, 'importScripts', guardedImportScripts);
  }

  const cache = scope.Cache as { prototype: Record<string, (...args: unknown[]) => Promise<unknown>> } | undefined;
  if (cache) {
    const { add, addAll } = cache.prototype as {
      add: (r: unknown) => Promise<void>;
      addAll: (r: unknown[]) => Promise<void>;
    };
    lock(cache.prototype, 'add', async function (this: unknown, given: unknown) {
      const request = new OriginalRequest(given as RequestInfo);
      const decision = await decideAsync(request.url, 'Cache.add');
      if (!decision.allow) throw denied(request.url, 'Cache.add', decision.reason);
      return add.call(this, request);
    });
    lock(cache.prototype, 'addAll', async function (this: unknown, given: Iterable<unknown>) {
      // Walked once: the list checked is the list added.
      const requests = Array.from(given, (r) => new OriginalRequest(r as RequestInfo));
      for (const request of requests) {
        const decision = await decideAsync(request.url, 'Cache.addAll');
        if (!decision.allow) throw denied(request.url, 'Cache.addAll', decision.reason);
      }
      return addAll.call(this, requests);
    });
  }

  // A FontFace with url() sources fetches them; binary data (an ArrayBuffer or a view) does not.
  const bufferLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')?.get;
  const isBinary = (value: unknown): boolean => {
    if (ArrayBuffer.isView(value)) return true;
    try {
      bufferLength?.call(value); // throws unless value really is an ArrayBuffer
      return bufferLength !== undefined;
    } catch {
      return false;
    }
  };
  guardConstructor('FontFace', (args) => {
    if (args.length < 2 || isBinary(args[1])) return { urls: [], args };
    const source = String(args[1]);
    return { urls: fontSourceUrls(source), args: [args[0], source, ...args.slice(2)] };
  });

  // A notification's icon, image and badge are fetched by the browser: the options are copied
  // (known members only, each read once) and those URLs checked.
  guardConstructor('Notification', (args) => {
    const given = args[1];
    if (typeof given !== 'object' || given === null) return { urls: [], args };
    const options: Record<string, unknown> = {};
    const urls: string[] = [];
    for (const key of NOTIFICATION_OPTIONS) {
      let value = (given as Record<string, unknown>)[key];
      if (value === undefined) continue;
      if (NOTIFICATION_URLS.has(key)) urls.push((value = String(value)));
      if (key === 'actions' && value !== null && typeof value === 'object') {
        value = Array.from(value as Iterable<Record<string, unknown>>, (action) => {
          const copy = { ...action };
          if (copy.icon !== undefined) urls.push((copy.icon = String(copy.icon)));
          return copy;
        });
      }
      options[key] = value;
    }
    return { urls, args: [args[0], options, ...args.slice(2)] };
  });
}
