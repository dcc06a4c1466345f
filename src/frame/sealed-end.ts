/**
 * The sealed side's end of a channel to the page (see `./channel.ts` for the page's): it answers
 * the page's requests, which come as Comlink messages, and asks the page questions of its own
 * (a network question, a store request), each with an id, a time limit and a signal.
 *
 * Not Comlink's `expose`: code the sealed side runs (tools, a script) shares its realm, and
 * `expose` walks paths with `Array.prototype.reduce`, reads messages through `Object.assign` and
 * answers through `Promise.prototype.then`, all of which that code may replace after start-up
 * (to reach the served object and run calls the page never sent, or answer for the page).
 * Everything here runs on built-ins taken when this module is evaluated, before any such code (the
 * sealed runtime and `moat-sdk/worker` import it first); a tool worker's network questions go
 * through it, so it is on the guard's path (worker/guard-path.test.ts checks it). It answers only
 * `APPLY` of one of the served object's own methods with plain arguments (what `wrap` sends for
 * `remote.method(…)`); every other request is answered with an error, and no path is walked.
 */
import type { SerializedError } from '../errors/serialize-error';

const { apply, construct, defineProperty } = Reflect;
const { getOwnPropertyDescriptor, hasOwn } = Object;
const isArray = Array.isArray;
const OriginalTypeError = TypeError;
const OriginalError = Error;
const OriginalPromise = Promise;
const OriginalMap = Map;
const StringOf = String;
const then = Promise.prototype.then;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapDelete = Map.prototype.delete;
const slice = String.prototype.slice;
const originalSetTimeout = setTimeout;
const originalClearTimeout = clearTimeout;
const addListener = EventTarget.prototype.addEventListener;
const removeListener = EventTarget.prototype.removeEventListener;
const abortedOf = getter(AbortSignal.prototype, 'aborted') as (signal: AbortSignal) => boolean;
const reasonOf = getter(AbortSignal.prototype, 'reason');

/** @evaluation */
function getter(prototype: object, key: string): (target: unknown) => unknown {
  const get = getOwnPropertyDescriptor(prototype, key)?.get;
  if (!get) throw new TypeError(`This realm has no ${key} getter`);
  return (target) => apply(get, target, []);
}

/**
 * `target[key]` when `target` has it as its own property: an absent one would be looked up on the
 * prototypes, where code sharing the realm may have put a getter. (Structured clones and the
 * objects served have data properties only.)
 */
function own(target: unknown, key: PropertyKey): unknown {
  if ((typeof target !== 'object' && typeof target !== 'function') || target === null) return undefined;
  return hasOwn(target, key) ? (target as Record<PropertyKey, unknown>)[key] : undefined;
}

/** A Comlink request as the page's `wrap` sends it for `remote.method(...args)`; its id alone when it is another. */
function readApply(data: unknown): { id: string; name: string; args: unknown[] } | string | undefined {
  const id = own(data, 'id');
  if (typeof id !== 'string') return undefined;
  const path = own(data, 'path');
  const list = own(data, 'argumentList');
  if (own(data, 'type') !== 'APPLY' || !isArray(path) || own(path, 'length') !== 1 || !isArray(list)) return id;
  const name = own(path, 0);
  if (typeof name !== 'string') return id;
  const args: unknown[] = [];
  const count = own(list, 'length') as number;
  for (let i = 0; i < count; i++) {
    const wire = own(list, i);
    if (own(wire, 'type') !== 'RAW') return id;
    defineProperty(args, i, { value: own(wire, 'value'), writable: true, enumerable: true, configurable: true });
  }
  return { id, name, args };
}

/**
 * Answer the page's requests on `api`'s own methods: returns what to call with each message the
 * page sends (read through the realm's locks), posting each answer with `post`. A method's value,
 * or what its promise resolves to, is the answer; what it throws goes back as `serialize` makes
 * it (the page revives it into its class). A value that cannot be cloned goes back as an error.
 * The methods named in `oneWay` are not answered (the page sends them with `Channel.send`).
 */
export function answerPage(
  api: object,
  post: (answer: object) => void,
  serialize: (error: unknown) => SerializedError,
  oneWay: Readonly<Record<string, true>> = {},
): (data: unknown) => void {
  const thrown = (id: string, error: unknown) => ({
    id,
    type: 'HANDLER',
    name: 'throw',
    value: { isError: false, value: serialize(error) },
  });
  const send = (id: string, ok: boolean, value: unknown) => {
    try {
      post(ok ? { id, type: 'RAW', value } : thrown(id, value));
    } catch (error) {
      post(thrown(id, new OriginalTypeError(`The answer cannot be sent to the page (${StringOf(error)})`)));
    }
  };
  return (data) => {
    const request = readApply(data);
    if (request === undefined) return; // not a request (no id): nothing to answer
    if (typeof request === 'string') {
      send(request, false, new OriginalTypeError('Only calls of the served methods are answered'));
      return;
    }
    const { id, name, args } = request;
    const method = own(api, name);
    if (typeof method !== 'function') {
      send(id, false, new OriginalTypeError(`No method '${apply(slice, name, [0, 100])}' is served`));
      return;
    }
    let value: unknown;
    try {
      value = apply(method, api, args);
    } catch (error) {
      if (own(oneWay, name) !== true) send(id, false, error);
      return;
    }
    // The page settles a one-way request itself (`Channel.send`): no answer is posted.
    if (own(oneWay, name) === true) return;
    if (typeof value !== 'object' || value === null) {
      send(id, true, value);
      return;
    }
    // A promise (of this realm: its internal slot decides, not its prototype) answers when it settles.
    try {
      apply(then, value, [(v: unknown) => send(id, true, v), (e: unknown) => send(id, false, e)]);
    } catch {
      send(id, true, value);
    }
  };
}

/** The page's answer to a question: a value, or what it refused with. */
export type PageAnswer = { value: unknown } | { error: SerializedError };

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

/** A question's limits. */
export interface AskOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
  timeout?: () => Error;
}

/**
 * The sealed side's questions to the page: each gets an id (`post` sends it with the question),
 * and waits in a map (taken at evaluation, as everything here) until the page answers it
 * (`answer`), the time limit passes, or the signal aborts.
 */
export class PageAsks<Question> {
  readonly #post: (id: number, question: Question) => void;
  readonly #revive: (error: SerializedError) => Error;
  readonly #pending = construct(OriginalMap, []) as Map<number, Waiting>;
  #asks = 0;

  /** `revive` turns a refusal back into an error (`reviveError`, where the error classes are loaded). */
  constructor(post: (id: number, question: Question) => void, revive: (error: SerializedError) => Error) {
    this.#post = post;
    this.#revive = revive;
  }

  /** Put `question` to the page; resolves with its answer's value, rejects with its error. */
  ask(question: Question, options: AskOptions = {}): Promise<unknown> {
    return construct(OriginalPromise, [
      (resolve: (value: unknown) => void, reject: (error: unknown) => void) => {
        const signal = own(options, 'signal') as AbortSignal | undefined;
        const timeoutMs = own(options, 'timeoutMs') as number | undefined;
        const timeout = own(options, 'timeout') as (() => Error) | undefined;
        if (signal && abortedOf(signal)) return reject(reasonOf(signal));
        const id = ++this.#asks;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const aborted = () => fail(signal ? reasonOf(signal) : undefined);
        const end = () => {
          apply(mapDelete, this.#pending, [id]);
          if (timer !== undefined) originalClearTimeout(timer);
          if (signal) apply(removeListener, signal, ['abort', aborted]);
        };
        const fail = (error: unknown) => {
          end();
          reject(error);
        };
        const waiting: Waiting = {
          resolve: (value) => {
            end();
            resolve(value);
          },
          reject: fail,
        };
        apply(mapSet, this.#pending, [id, waiting]);
        if (signal) apply(addListener, signal, ['abort', aborted, { once: true }]);
        if (timeoutMs !== undefined)
          timer = originalSetTimeout(
            () => fail(timeout ? timeout() : new OriginalError(`The page did not answer within ${timeoutMs} ms`)),
            timeoutMs,
          );
        try {
          this.#post(id, question);
        } catch (error) {
          fail(error); // not cloneable, say
        }
      },
    ]) as Promise<unknown>;
  }

  /** The page's answer to question `id` (an id no longer waiting is ignored). */
  answer(id: number, answer: PageAnswer): void {
    const waiting = apply(mapGet, this.#pending, [id]) as Waiting | undefined;
    if (!waiting) return;
    if (hasOwn(answer, 'error')) waiting.reject(this.#revive(own(answer, 'error') as SerializedError));
    else waiting.resolve(own(answer, 'value'));
  }
}
