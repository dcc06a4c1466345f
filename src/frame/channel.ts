/**
 * The page's side of every channel to a sealed side: a tool worker, a sealed frame, a sandbox
 * script, the MCP client. What crosses, in which direction:
 *
 * - page → sealed: requests, as Comlink messages. The page `wrap`s what the sealed side serves
 *   (`connect`); each request is answered once, with a value or what was thrown.
 * - sealed → page: Comlink's answers to those, and what the sealed side says unasked (a call
 *   started, results, progress, a store request, a network question, its end): tagged messages
 *   `{ t, … }`, each checked against the page's table of shapes before use (`readMessage`).
 *
 * The page exposes nothing and never hands the sealed side a `Comlink.proxy`: Comlink walks
 * whatever path a message names on what it exposes, so a hostile worker that sent
 * `{ type: 'CONSTRUCT', path: ['constructor'] }` to a proxied callback built `Function` in the
 * page's realm, and an `APPLY` ran it. Comlink is safe in one direction only. Even the answers it
 * reads are hostile: the guard here passes it only well-formed answers, rebuilt from checked
 * fields (a `proxy` answer would wrap a port the sealed side chose; a thrown value with an own
 * `__proto__` key, `Object.assign`ed onto an Error, would set its prototype).
 */
import { type Endpoint, type Remote, wrap } from 'comlink';
import { isSerializedError, reviveError } from '../errors/serialize-error';
import { isPlainObject } from '../json/json-value';

/**
 * The type of one field of an unasked message: `?` marks one that may be absent or undefined;
 * `count` is a whole number ≥ 0; `any` is present, of any type (its reader checks it).
 */
export type FieldType =
  | 'string'
  | 'string?'
  | 'integer'
  | 'count'
  | 'boolean'
  | 'array'
  | 'object'
  | 'object?'
  | 'any'
  | 'any?';

/** Each unasked message's keys besides its tag `t`, and the type of each: no other key is read. */
export type Shapes<Told extends { t: string }> = { readonly [T in Told['t']]: Readonly<Record<string, FieldType>> };

/** What to do with what the sealed side says unasked. */
export interface Unasked<Told extends { t: string }> {
  shapes: Shapes<Told>;
  /** A message of the table, of the right shape (its fields' contents are the caller's to check). */
  message(message: Told): void;
  /** Anything else it sent (`data`), and why it is not a message of the table, as a `TypeError`. Never thrown into the page. */
  malformed(error: TypeError, data: unknown): void;
}

/** A request's limits. */
export interface RequestOptions {
  signal?: AbortSignal | undefined;
  /** No answer within this time: rejects with `timeout()`'s error. */
  timeoutMs?: number | undefined;
  timeout?: (() => Error) | undefined;
  /** Objects the request's arguments hold that move to the sealed side (a `MessagePort`). */
  transfer?: Transferable[] | undefined;
}

/** The page's end of a channel to a sealed side serving `Api` (see `connect`). */
export interface Channel<Api> {
  /**
   * Ask the sealed side (`ask` calls `remote`), and read its answer with `read`, which checks
   * its shape (it is hostile input) and throws when it is wrong. Rejects with what the sealed
   * side threw (revived into its class when it sent a `SerializedError`), the signal's reason,
   * the timeout's error, or the reason the channel was closed with.
   */
  request<T>(
    ask: (remote: Remote<Api>) => Promise<unknown>,
    read: (value: unknown) => T,
    options?: RequestOptions,
  ): Promise<T>;
  /**
   * Send a one-way request (a batch of calls, a cancel): one the sealed side does not answer
   * (`answerPage`'s `oneWay`), so that it costs one message, not two. Returns the error posting
   * threw (a value that cannot be cloned), at once. Never throws.
   */
  send(ask: (remote: Remote<Api>) => Promise<unknown>): Error | undefined;
  /** Requests still waiting reject with `reason`; nothing more is read. */
  close(reason: Error): void;
}

/**
 * Connect to what a sealed side serves on `endpoint` (a Worker, a MessagePort): Comlink's `wrap`
 * over a guarded endpoint, and `unasked` told of every other message it sends, checked.
 *
 * @example
 * const channel = connect<ToolWorkerApi, WorkerToPage>(worker, { shapes, message, malformed });
 * const names = await channel.request((w) => w.configure(config), readReady, { timeoutMs: 10_000 });
 */
export function connect<Api, Told extends { t: string } = never>(
  endpoint: Endpoint,
  unasked?: Unasked<Told>,
): Channel<Api> {
  const toComlink = new Set<EventListenerOrEventListenerObject>();
  let closed: Error | undefined;
  /** Requests waiting, to be told when the channel closes. */
  const waiting = new Set<(reason: Error) => void>();
  endpoint.addEventListener('message', (event) => {
    if (closed) return;
    const data = (event as MessageEvent).data;
    const answer = readAnswer(data);
    if (answer) {
      const replayed = { data: answer } as MessageEvent;
      for (const listener of toComlink)
        typeof listener === 'function' ? listener(replayed) : listener.handleEvent(replayed);
      return;
    }
    if (!unasked) return;
    // A Comlink request (GET, SET, APPLY, CONSTRUCT…) or a broken answer is not a message of the table either.
    const told = readMessage(unasked.shapes, data);
    if (typeof told === 'string') unasked.malformed(new TypeError(`The sealed side sent ${told}`), data);
    else unasked.message(told);
  });
  /** What the request being posted transfers (Comlink posts it at once, inside the call). */
  let moving: Transferable[] = [];
  // Comlink reads only what the listener above hands it.
  const guarded: Endpoint = {
    postMessage: (message, transfer) => {
      // Nothing to release on the sealed side (Comlink asks when its proxies are collected), and
      // nothing more goes once the channel is closed (a stopped worker's port may throw).
      if (closed || (message as { type?: unknown }).type === 'RELEASE') return;
      endpoint.postMessage(message, moving.length ? [...(transfer ?? []), ...moving] : (transfer ?? []));
    },
    addEventListener: (type, listener) => {
      if (type === 'message') toComlink.add(listener);
    },
    removeEventListener: (type, listener) => {
      if (type === 'message') toComlink.delete(listener);
    },
    ...(endpoint.start ? { start: () => endpoint.start?.() } : {}),
  };
  /**
   * The sealed side's methods for one-way requests: each posts Comlink's APPLY message at once,
   * with an id of its own and nothing kept waiting (no answer comes). Through Comlink's own path
   * (a proxy per read, an id from four random numbers, promises, a record settled by hand) a
   * sealed call's round trip was 1.78 of a bare one (pool/call-rtt, pair ratio), this way 1.25
   * (the code before this channel: 1.42), for an answer that is never read.
   */
  let sent = 0;
  const oneWay = new Proxy({} as Remote<Api>, {
    get: (_, name) => {
      if (typeof name !== 'string') return undefined;
      return (...args: unknown[]) => {
        guarded.postMessage({
          id: `one-way-${++sent}`,
          type: 'APPLY',
          path: [name],
          argumentList: args.map((value) => ({ type: 'RAW', value })),
        });
        return Promise.resolve();
      };
    },
  });
  const remote = wrap<Api>(guarded);
  return {
    request<T>(
      ask: (remote: Remote<Api>) => Promise<unknown>,
      read: (value: unknown) => T,
      options: RequestOptions = {},
    ) {
      return new Promise<T>((resolve, reject) => {
        if (closed) return reject(closed);
        const { signal, timeoutMs, timeout } = options;
        if (signal?.aborted) return reject(signal.reason);
        let timer: ReturnType<typeof setTimeout> | undefined;
        const end = () => {
          waiting.delete(fail);
          clearTimeout(timer);
          signal?.removeEventListener('abort', aborted);
        };
        const fail = (reason: unknown) => {
          end();
          reject(reason);
        };
        const aborted = () => fail(signal?.reason);
        waiting.add(fail);
        signal?.addEventListener('abort', aborted, { once: true });
        if (timeoutMs !== undefined)
          timer = setTimeout(
            () => fail(timeout?.() ?? new Error(`No answer from the sealed side within ${timeoutMs} ms`)),
            timeoutMs,
          );
        let asked: Promise<unknown>;
        moving = options.transfer ?? [];
        try {
          asked = ask(remote);
        } catch (error) {
          return fail(error); // not cloneable, say
        } finally {
          moving = [];
        }
        asked.then(
          (value) => {
            if (!waiting.has(fail)) return;
            end();
            try {
              resolve(read(value));
            } catch (error) {
              reject(error);
            }
          },
          (thrown: unknown) => {
            if (waiting.has(fail)) fail(revive(thrown));
          },
        );
      });
    },
    send(ask) {
      if (closed) return undefined;
      try {
        ask(oneWay);
      } catch (error) {
        return error as Error; // not cloneable, say
      }
      return undefined;
    },
    close(reason) {
      if (closed) return;
      closed = reason;
      for (const fail of [...waiting]) fail(reason);
    },
  };
}

/** What the sealed side threw, as an error of the page: its own class when it sent a `SerializedError`. */
function revive(thrown: unknown): Error {
  if (isSerializedError(thrown)) return reviveError(thrown);
  if (thrown instanceof Error) return thrown;
  return new Error(`The sealed side threw ${typeof thrown === 'string' ? thrown.slice(0, 200) : typeof thrown}`);
}

/** Longest id Comlink makes: four hexadecimal numbers below 2^53 and their dashes. */
const MAX_ID = 64;

/**
 * `data` as an answer Comlink may read, rebuilt from its checked fields; undefined when it is
 * not one. Only a value (`RAW`) or what was thrown (`HANDLER` named `throw`) is an answer: a
 * `proxy` handler, a request (GET, SET, APPLY, CONSTRUCT…) or anything else is dropped.
 */
function readAnswer(data: unknown): object | undefined {
  if (!isPlainObject(data) || !Object.hasOwn(data, 'id')) return undefined;
  const { id, type } = data;
  if (typeof id !== 'string' || id.length === 0 || id.length > MAX_ID) return undefined;
  if (type === 'RAW') return { id, type, value: data.value };
  if (type !== 'HANDLER' || data.name !== 'throw' || !isPlainObject(data.value)) return undefined;
  const { isError, value } = data.value;
  if (isError === false) return { id, type, name: 'throw', value: { isError, value } };
  if (isError !== true || !isPlainObject(value)) return undefined;
  // Comlink assigns these onto a new Error: only these three, each a string.
  const error: Record<string, string> = {};
  for (const key of ['message', 'name', 'stack'] as const) {
    const field = Object.hasOwn(value, key) ? value[key] : undefined;
    if (typeof field === 'string') error[key] = field.slice(0, 10_000);
  }
  return { id, type, name: 'throw', value: { isError, value: error } };
}

/**
 * `data` as a message of the table, or a sentence saying why it is not one. Shapes only: a plain
 * object, a known tag, no key more, each of the right type; what a field holds is its reader's
 * to check.
 */
export function readMessage<Told extends { t: string }>(shapes: Shapes<Told>, data: unknown): Told | string {
  if (!isPlainObject(data)) return `a message that is not an object (${kindOf(data)})`;
  const tag = data.t;
  if (typeof tag !== 'string' || !Object.hasOwn(shapes, tag)) return 'a message of no known type';
  const shape = shapes[tag as Told['t']];
  for (const key of Object.keys(data)) {
    if (key === 't') continue;
    const type = Object.hasOwn(shape, key) ? shape[key] : undefined;
    if (type === undefined) return `${article(tag)} '${tag}' message with a key it does not have`;
    if (!fits(type, data[key]))
      return `${article(tag)} '${tag}' message whose ${key} is not ${article(type)} ${type.replace('?', '')}`;
  }
  for (const [key, type] of Object.entries(shape))
    if (!type.endsWith('?') && !Object.hasOwn(data, key)) return `${article(tag)} '${tag}' message without its ${key}`;
  return data as Told;
}

function fits(type: FieldType, value: unknown): boolean {
  if (type.endsWith('?') && value === undefined) return true;
  switch (type) {
    case 'string':
    case 'string?':
      return typeof value === 'string';
    case 'integer':
      return Number.isSafeInteger(value);
    case 'count':
      return Number.isSafeInteger(value) && (value as number) >= 0;
    case 'boolean':
      return typeof value === 'boolean';
    case 'array':
      return Array.isArray(value);
    case 'object':
    case 'object?':
      return isPlainObject(value);
    case 'any':
    case 'any?':
      return true;
  }
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return Object.prototype.toString.call(value).slice(8, -1);
  return typeof value;
}
