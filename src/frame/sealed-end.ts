/**
 * The sealed side's end of a channel to the page (see `./channel.ts` for the page's): it answers
 * the page's requests, which come as Comlink messages, and asks the page questions of its own
 * (a network question, a store request), each with an id, a time limit and a signal.
 *
 * Not Comlink's `expose`: code the sealed side runs (tools, a script) shares its realm, and
 * `expose` walks paths with `Array.prototype.reduce`, reads messages through `Object.assign` and
 * answers through `Promise.prototype.then`, all of which that code may replace after start-up
 * (to reach the served object and run calls the page never sent, or answer for the page).
 * Everything here runs on built-ins taken when this module is evaluated, before any such code:
 * the sealed runtime and `moat-sdk/worker` import it first. It answers only `APPLY` of one of the
 * served object's own methods with plain arguments (what `wrap` sends for `remote.method(…)`);
 * every other request is answered with an error, and nothing walks a path.
 */
import { type SerializedError, serializeError } from '../errors/serialize-error';

const { apply, construct } = Reflect;
const { getOwnPropertyDescriptor, hasOwn } = Object;
const isArray = Array.isArray;
const OriginalPromise = Promise;
const OriginalMap = Map;
const then = Promise.prototype.then;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapDelete = Map.prototype.delete;
const originalSetTimeout = setTimeout;
const originalClearTimeout = clearTimeout;
const addListener = EventTarget.prototype.addEventListener;
const removeListener = EventTarget.prototype.removeEventListener;

/** `target[key]` when it is `target`'s own data property: nothing a prototype holds is read. */
function own(target: unknown, key: PropertyKey): unknown {
  if (typeof target !== 'object' || target === null) return undefined;
  return getOwnPropertyDescriptor(target, key)?.value;
}

/** A Comlink request as the page's `wrap` sends it for `remote.method(...args)`. */
function readApply(data: unknown): { id: string; name: string; args: unknown[] } | string | undefined {
  const id = own(data, 'id');
  if (typeof id !== 'string') return undefined;
  const type = own(data, 'type');
  const path = own(data, 'path');
  const list = own(data, 'argumentList');
  if (type !== 'APPLY' || !isArray(path) || own(path, 'length') !== 1 || !isArray(list)) return id;
  const name = own(path, 0);
  if (typeof name !== 'string') return id;
  const args: unknown[] = [];
  const count = own(list, 'length') as number;
  for (let i = 0; i < count; i++) {
    const wire = own(list, i);
    if (own(wire, 'type') !== 'RAW') return id;
    args[i] = own(wire, 'value');
  }
  return { id, name, args };
}

/** An answer thrown, as the page's channel revives it (into its class). */
const thrown = (id: string, error: unknown) => ({
  id,
  type: 'HANDLER',
  name: 'throw',
  value: { isError: false, value: serializeError(error) },
});

/**
 * Answer the page's requests on `api`'s own methods: returns what to call with each message the
 * page sends (the realm's locks read them), posting each answer with `post`. A method's value,
 * or what it resolves to, is the answer; what it throws goes back serialized. A value that
 * cannot be cloned goes back as a `TypeError`.
 */
export function answerPage(api: object, post: (answer: object) => void): (data: unknown) => void {
  const send = (id: string, outcome: 'value' | 'error', value: unknown) => {
    try {
      post(outcome === 'value' ? { id, type: 'RAW', value } : thrown(id, value));
    } catch (error) {
      post(thrown(id, new TypeError(`The answer cannot be sent to the page (${(error as Error)?.message})`)));
    }
  };
  return (data) => {
    const request = readApply(data);
    if (request === undefined) return; // not a request (no id): nothing to answer
    if (typeof request === 'string') {
      send(request, 'error', new TypeError('Only calls of the served methods are answered'));
      return;
    }
    const method = hasOwn(api, request.name) ? own(api, request.name) : undefined;
    if (typeof method !== 'function') {
      send(request.id, 'error', new TypeError(`No method '${request.name.slice(0, 100)}' is served`));
      return;
    }
    let value: unknown;
    try {
      value = apply(method, api, request.args);
    } catch (error) {
      send(request.id, 'error', error);
      return;
    }
    if (!(value instanceof OriginalPromise)) {
      send(request.id, 'value', value);
      return;
    }
    apply(then, value, [(v: unknown) => send(request.id, 'value', v), (e: unknown) => send(request.id, 'error', e)]);
  };
}

/** The page's answer to a question: a value, or what it refused with. */
export type PageAnswer = { value: unknown } | { error: SerializedError };

interface Waiting {
  resolve(value: unknown): void;
  reject(error: unknown): void;
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
  ask(question: Question, options: { signal?: AbortSignal; timeoutMs?: number; timeout?: () => Error } = {}) {
    return construct(OriginalPromise, [
      (resolve: (value: unknown) => void, reject: (error: unknown) => void) => {
        const { signal, timeoutMs, timeout } = options;
        if (signal?.aborted) return reject(signal.reason);
        const id = ++this.#asks;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const aborted = () => fail(signal?.reason);
        const end = () => {
          apply(mapDelete, this.#pending, [id]);
          if (timer !== undefined) originalClearTimeout(timer);
          if (signal) apply(removeListener, signal, ['abort', aborted]);
        };
        const fail = (error: unknown) => {
          end();
          reject(error);
        };
        apply(mapSet, this.#pending, [
          id,
          {
            resolve: (value: unknown) => {
              end();
              resolve(value);
            },
            reject: fail,
          },
        ]);
        if (signal) apply(addListener, signal, ['abort', aborted, { once: true }]);
        if (timeoutMs !== undefined)
          timer = originalSetTimeout(
            () => fail(timeout?.() ?? new Error(`The page did not answer within ${timeoutMs} ms`)),
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
    const error = own(answer, 'error');
    if (error !== undefined) waiting.reject(this.#revive(error as SerializedError));
    else waiting.resolve(own(answer, 'value'));
  }
}
