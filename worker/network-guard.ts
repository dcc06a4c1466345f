/// <reference lib="webworker" />
/**
 * The network guard: installed when Moat's sealed runtime or a plain worker's `moat-sdk/worker` is
 * first evaluated, before any tool runs, it replaces every door from a worker to the network with
 * a checked one, and locks the replacements (non-writable, non-configurable, on the global and on
 * the prototypes, with the originals' `prototype.constructor` pointing at the guard), so tool code
 * cannot put the originals back. Until the pool states its policy, fetch-like requests wait and synchronous
 * ones are refused.
 *
 * Doors: `fetch` (global and `WorkerGlobalScope.prototype`), `XMLHttpRequest`, `WebSocket`,
 * `WebSocketStream`, `EventSource`, `WebTransport`, `importScripts`, nested `Worker` and
 * `SharedWorker`, `Cache.add`/`addAll`, `FontFace` URL sources, `Notification` icons. Checked
 * against every global of a dedicated worker in Chromium 156: `SharedWorker`, `fetchLater`,
 * `navigator.sendBeacon`, `navigator.serviceWorker` and `RTCPeerConnection` are not exposed there
 * (the guard covers `SharedWorker` where it is); the rest reach the network only through these
 * doors (`WebAssembly.compileStreaming` takes a fetched response, `fonts` loads FontFaces).
 *
 * Each door reads its arguments once and passes on what it checked (a string, a `Request` built
 * once, a copy of the options), never the caller's value, which could read differently the
 * second time. Deciding uses only the built-ins taken before tool code ran (`./primordials`), so
 * tool code replacing `String.prototype.startsWith`, `URL`, `Promise.prototype.then` or an array
 * iterator changes nothing the guard decides. `data:` and `blob:` URLs are local and always
 * allowed.
 *
 * Not covered, and cannot be from JavaScript: dynamic `import()` (serve the worker script with a
 * Content-Security-Policy: see `workerContentSecurityPolicy`), and references to the originals
 * taken by code that ran before this module (in a plain worker: import `moat-sdk/worker` before any
 * library you do not trust; a sealed worker runs the guard before any module of the tools).
 */
import { NetworkDeniedError } from '../src/errors/network-denied-error';
import type { NetworkPolicyWire } from '../src/pool/protocol';
import {
  apply,
  arrayFrom,
  baseHref,
  construct,
  defineProperty,
  getOwnPropertyDescriptor,
  getPrototypeOf,
  hasOwn,
  isView,
  iteratorSymbol,
  OriginalPromise,
  OriginalRequest,
  OriginalURL,
  promiseThen,
  regExpExec,
  requestUrl,
  StringOf,
  setOwn,
  stringStartsWith,
  stringTrim,
  urlHref,
  workerGlobal,
} from './primordials';

type Decision = { allow: true } | { allow: false; reason: string };
/** Ask the page about a URL; the answer comes by message, so only APIs that can wait ask. */
export type AskPage = (url: string, api: string) => Promise<boolean>;

const ALLOW: Decision = { allow: true };
const REFUSED: Decision = { allow: false, reason: 'refused by the policy function' };

let policy: NetworkPolicyWire | undefined;
let ask: AskPage | undefined;
let configured: () => void;
const ready = new OriginalPromise<void>((resolve) => {
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

/** The absolute URL a string names, as the browser will read it (relative to this worker). */
function resolveUrl(text: string): string {
  try {
    return urlHref(construct(OriginalURL, [text, baseHref]) as URL);
  } catch {
    return text; // not a URL: the API refuses it too
  }
}

function isLocal(url: string): boolean {
  return stringStartsWith(url, 'data:') || stringStartsWith(url, 'blob:');
}

function decideSync(url: string, api: string): Decision {
  if (isLocal(url)) return ALLOW;
  if (!policy) return { allow: false, reason: 'the pool has not set the network policy yet' };
  if (policy.mode === 'allow') return ALLOW;
  if (policy.mode === 'deny') return { allow: false, reason: "policy 'deny'" };
  return { allow: false, reason: `a synchronous API (${api}) cannot wait for the policy function on the page` };
}

/** Decide, waiting for the policy (and for the page's answer) if need be. */
function decide(url: string, api: string, done: (decision: Decision) => void): void {
  if (isLocal(url)) {
    done(ALLOW);
    return;
  }
  const decideNow = () => {
    let decision: Decision;
    try {
      if (policy?.mode === 'ask' && ask) {
        promiseThen(
          ask(url, api),
          (allowed) => done(allowed === true ? ALLOW : REFUSED),
          () => done(REFUSED),
        );
        return;
      }
      decision = decideSync(url, api);
    } catch {
      // Asking failed: refused, and said so (a promise left pending would hang the tool).
      decision = { allow: false, reason: 'the policy could not be asked' };
    }
    done(decision);
  };
  if (policy) decideNow();
  else promiseThen(ready, decideNow, () => done(decideSync(url, api)));
}

/**
 * An asynchronous door: `prepare` reads the arguments once and says which URL they reach and how
 * to go there; `start` runs once that URL is allowed. Whatever throws rejects the promise.
 */
function guardedAsync<T>(api: string, prepare: () => { url: string; start: () => T | Promise<T> }): Promise<T> {
  return construct(OriginalPromise, [
    (resolve: (value: T | Promise<T>) => void, reject: (reason: unknown) => void) => {
      const { url, start } = prepare();
      decide(url, api, (decision) => {
        try {
          if (!decision.allow) reject(denied(url, api, decision.reason));
          else resolve(start());
        } catch (error) {
          reject(error);
        }
      });
    },
  ]) as Promise<T>;
}

function denied(url: string, api: string, reason: string): NetworkDeniedError {
  return new NetworkDeniedError({ url, api, reason });
}

/** Check one URL (already a string: read once) synchronously; throws when it is denied. */
function check(text: string, api: string): void {
  const url = resolveUrl(text);
  const decision = decideSync(url, api);
  if (!decision.allow) throw denied(url, api, decision.reason);
}

/** @evaluation */
function lock(target: object, key: PropertyKey, value: unknown): void {
  const existing = getOwnPropertyDescriptor(target, key);
  defineProperty(target, key, {
    value,
    writable: false,
    configurable: false,
    enumerable: existing?.enumerable ?? false,
  });
}

/**
 * Replace a constructor: `prepare` reads the arguments once, puts what it read in their place
 * (the arguments array is the guard's own), and checks their URLs; then the original is built.
 * @evaluation
 */
function guardConstructor(name: string, prepare: (args: unknown[], api: string) => void): void {
  const Original = scope[name] as (new (...args: unknown[]) => object) | undefined;
  if (typeof Original !== 'function') return;
  function guard(this: unknown, ...args: unknown[]): object {
    if (!new.target) throw new TypeError(`Failed to construct '${name}': Please use the 'new' operator.`);
    prepare(args, name);
    const target = Original as new (...a: unknown[]) => object;
    return construct(target, args, (new.target as unknown) === guard ? target : new.target);
  }
  defineProperty(guard, 'name', { value: name });
  (guard as { prototype: object }).prototype = Original.prototype;
  for (const key of Object.getOwnPropertyNames(Original)) {
    if (key === 'prototype' || key === 'name' || key === 'length') continue;
    const d = getOwnPropertyDescriptor(Original, key);
    if (d) defineProperty(guard, key, d);
  }
  lock(Original.prototype, 'constructor', guard);
  lock(scope, name, guard);
}

/**
 * The argument at `index` is a URL: turned into a string once, checked, and put back as that
 * string, so what the original is given is what was checked. Absent: the original throws its own
 * TypeError.
 */
function readUrlAt(args: unknown[], index: number, api: string): void {
  if (index >= args.length) return;
  const url = StringOf(args[index]);
  setOwn(args, index, url);
  check(url, api);
}

/** The first argument is the URL. */
const firstUrl = (args: unknown[], api: string): void => readUrlAt(args, 0, api);

/** @evaluation */
function denyConstructor(name: string): void {
  guardConstructor(name, () => {
    throw denied(name, name, 'tools cannot start workers (they would escape the network policy)');
  });
}

const CSS_ESCAPE_OR_COMMENT = /[\\]|\/\*/;
const CSS_URL = /\b(?:url|src)\(\s*(?:"([^"]*)"|'([^']*)'|([^)]*?))\s*\)/gi;

/**
 * Check every URL a FontFace source string would load: each `url()` or `src()`, in any case. A
 * source with CSS escapes or comments is not read here: the whole of it is checked as one URL,
 * which only an 'allow' policy (or a function that allows it) lets through.
 */
function checkFontSource(source: string, api: string): void {
  if (regExpExec(CSS_ESCAPE_OR_COMMENT, source) !== null) {
    check(source, api);
    return;
  }
  CSS_URL.lastIndex = 0;
  for (let m = regExpExec(CSS_URL, source); m !== null; m = regExpExec(CSS_URL, source))
    check(stringTrim(m[1] ?? m[2] ?? m[3] ?? ''), api);
}

/**
 * Every prototype on the global's chain that owns `key`, and the global itself.
 * @evaluation
 */
function holders(key: string): object[] {
  const out: object[] = [globalThis];
  for (let p = getPrototypeOf(globalThis); p && p !== Object.prototype; p = getPrototypeOf(p)) {
    if (hasOwn(p, key)) out.push(p);
  }
  return out;
}

/** An iterable over `items` that uses nothing tool code can replace (for the browser to walk). */
function ownIterable<T>(items: T[]): Iterable<T> {
  return {
    [iteratorSymbol]() {
      let i = 0;
      return {
        next: () => (i < items.length ? { value: items[i++] as T, done: false } : { value: undefined, done: true }),
      };
    },
  } as Iterable<T>;
}

/**
 * Install the guard on this worker's global. Idempotent.
 * @evaluation
 */
export function installNetworkGuard(): void {
  if (installed) return;
  installed = true;

  // Requests are built once, with the original Request, and that (immutable) request is what
  // is checked and sent.
  const originalFetch = scope.fetch as typeof fetch | undefined;
  if (typeof originalFetch === 'function' && OriginalRequest && requestUrl) {
    const urlOf = requestUrl;
    const NewRequest = OriginalRequest;
    const guardedFetch = function fetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
      return guardedAsync('fetch', () => {
        const request = construct(NewRequest, [input, init]) as Request;
        return { url: urlOf(request), start: () => apply(originalFetch, workerGlobal, [request]) as Promise<Response> };
      });
    };
    for (const holder of holders('fetch')) lock(holder, 'fetch', guardedFetch);
  }

  const xhr = scope.XMLHttpRequest as { prototype: { open: (...args: unknown[]) => void } } | undefined;
  if (xhr) {
    const originalOpen = xhr.prototype.open;
    lock(xhr.prototype, 'open', function open(this: unknown, ...args: unknown[]) {
      readUrlAt(args, 1, 'XMLHttpRequest');
      return apply(originalOpen, this, args);
    });
  }

  guardConstructor('WebSocket', firstUrl);
  guardConstructor('WebSocketStream', firstUrl);
  guardConstructor('EventSource', firstUrl);
  guardConstructor('WebTransport', firstUrl);
  denyConstructor('Worker');
  denyConstructor('SharedWorker');

  if (typeof scope.importScripts === 'function') {
    const originalImportScripts = scope.importScripts as (...urls: string[]) => void;
    const guardedImportScripts = function importScripts(...urls: unknown[]) {
      for (let i = 0; i < urls.length; i++) readUrlAt(urls, i, 'importScripts');
      return apply(originalImportScripts, workerGlobal, urls);
    };
    for (const holder of holders('importScripts')) lock(holder, 'importScripts', guardedImportScripts);
  }

  const cache = scope.Cache as { prototype: Record<string, (...args: unknown[]) => Promise<unknown>> } | undefined;
  if (cache && OriginalRequest && requestUrl) {
    const urlOf = requestUrl;
    const NewRequest = OriginalRequest;
    const { add, addAll } = cache.prototype as {
      add: (r: unknown) => Promise<void>;
      addAll: (r: Iterable<unknown>) => Promise<void>;
    };
    lock(cache.prototype, 'add', function (this: unknown, given: unknown): Promise<void> {
      return guardedAsync('Cache.add', () => {
        const request = construct(NewRequest, [given]) as Request;
        return { url: urlOf(request), start: () => apply(add, this, [request]) as Promise<void> };
      });
    });
    lock(cache.prototype, 'addAll', function (this: unknown, given: Iterable<unknown>): Promise<void> {
      // Walked once: the requests checked are the requests added, handed over in an iterable
      // of the guard's own. Each is allowed before the next is asked about.
      let requests: Request[] = [];
      const checkFrom = (i: number): Promise<void> =>
        guardedAsync('Cache.addAll', () => {
          if (i === 0) requests = arrayFrom(given, (r) => construct(NewRequest, [r as RequestInfo]) as Request);
          if (i === requests.length) return { url: 'data:', start: () => apply(addAll, this, [ownIterable(requests)]) };
          return { url: urlOf(requests[i] as Request), start: () => checkFrom(i + 1) };
        });
      return checkFrom(0);
    });
  }

  // A FontFace with url() sources fetches them; binary data (an ArrayBuffer or a view) does not.
  const bufferLength = getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')?.get;
  const isBinary = (value: unknown): boolean => {
    if (isView(value)) return true;
    if (!bufferLength) return false;
    try {
      apply(bufferLength, value, []); // throws unless value really is an ArrayBuffer
      return true;
    } catch {
      return false;
    }
  };
  guardConstructor('FontFace', (args, api) => {
    if (args.length < 2 || isBinary(args[1])) return;
    const source = StringOf(args[1]);
    setOwn(args, 1, source);
    checkFontSource(source, api);
  });

  // A notification's icon, image and badge are fetched by the browser. The options are copied,
  // each member read once, into an object with no prototype (so nothing inherited is read),
  // and those URLs checked. Actions are for persistent notifications only: not copied.
  const urlOption = (value: unknown, api: string): string | undefined => {
    if (value === undefined) return undefined;
    const url = StringOf(value);
    check(url, api);
    return url;
  };
  guardConstructor('Notification', (args, api) => {
    const given = args[1] as Record<string, unknown> | null | undefined;
    if (args.length < 2 || given === null || (typeof given !== 'object' && typeof given !== 'function')) return;
    setOwn(args, 1, {
      __proto__: null,
      dir: given.dir,
      lang: given.lang,
      body: given.body,
      tag: given.tag,
      image: urlOption(given.image, api),
      icon: urlOption(given.icon, api),
      badge: urlOption(given.badge, api),
      vibrate: given.vibrate,
      timestamp: given.timestamp,
      renotify: given.renotify,
      silent: given.silent,
      requireInteraction: given.requireInteraction,
      data: given.data,
    });
  });
}
