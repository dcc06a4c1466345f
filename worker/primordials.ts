/// <reference lib="webworker" />
/**
 * The built-ins the network guard and the server's network questions rely on, taken when
 * `moat-sdk/worker` is evaluated: before any tool code runs. Tool code shares the worker's realm and
 * may replace `Array.prototype[Symbol.iterator]`, `String.prototype.startsWith`, `URL`,
 * `Promise.prototype.then`, `Atomics.load`…; the guard calls only these copies, so replacing
 * the originals changes nothing it decides.
 *
 * Calls go through `Reflect.apply` with arguments in array literals (own elements: no
 * iterator, no inherited setter is consulted).
 */
const { apply, construct } = Reflect;
const { defineProperty, getOwnPropertyDescriptor, getPrototypeOf, hasOwn } = Object;

export { apply, construct, defineProperty, getOwnPropertyDescriptor, getPrototypeOf, hasOwn };
export const ObjectPrototype: object = Object.prototype;

/**
 * `target[key]` if `target` has it as its own property, else undefined. A property that is
 * absent is looked up on the prototypes, where tool code may have put a getter
 * (`Object.prototype.sync`, say): optional fields are read through this.
 */
export const ownValue = <T extends object, K extends keyof T>(target: T, key: K): T[K] | undefined =>
  hasOwn(target, key) ? target[key] : undefined;

/**
 * `target[key] = value` as an own data property: a plain assignment to a key the object does not
 * have yet would call a setter tool code put on a prototype (`Array.prototype[0]`, say).
 */
export const setOwn = (target: object, key: PropertyKey, value: unknown): void => {
  defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
};

export const StringOf: (value: unknown) => string = String;
export const iteratorSymbol: typeof Symbol.iterator = Symbol.iterator;
export const arrayFrom = Array.from;
export const isView = ArrayBuffer.isView;

/** @evaluation */
function getter(prototype: object, key: string): (target: unknown) => unknown {
  const get = getOwnPropertyDescriptor(prototype, key)?.get;
  if (!get) throw new TypeError(`This worker has no ${key} getter to guard with`);
  return (target) => apply(get, target, []);
}

const startsWith = String.prototype.startsWith;
export const stringStartsWith = (text: string, prefix: string): boolean => apply(startsWith, text, [prefix]);
const exec = RegExp.prototype.exec;
export const regExpExec = (pattern: RegExp, text: string): RegExpExecArray | null => apply(exec, pattern, [text]);
const trim = String.prototype.trim;
export const stringTrim = (text: string): string => apply(trim, text, []);

export const OriginalURL = URL;
export const urlHref = getter(URL.prototype, 'href') as (url: URL) => string;
export const OriginalRequest: typeof Request | undefined = typeof Request === 'function' ? Request : undefined;
export const requestUrl: ((request: Request) => string) | undefined = OriginalRequest
  ? (getter(OriginalRequest.prototype, 'url') as (request: Request) => string)
  : undefined;
/** The worker's own address, read once (tool code may redefine `location` later). */
export const baseHref: string | undefined = (globalThis as { location?: { href: string } }).location?.href;

export const OriginalPromise = Promise;
const then = Promise.prototype.then;
/** `promise.then(onFulfilled, onRejected)` through the original `then`: the callbacks get the real outcome. */
export const promiseThen = <T>(
  promise: Promise<T>,
  onFulfilled: (value: T) => void,
  onRejected: (reason: unknown) => void,
): void => {
  apply(then, promise, [onFulfilled, onRejected]);
};

export const OriginalMap = Map;
const mapGet = Map.prototype.get;
const mapSet = Map.prototype.set;
const mapDelete = Map.prototype.delete;
export const mapGetOf = <K, V>(map: Map<K, V>, key: K): V | undefined => apply(mapGet, map, [key]);
export const mapSetOf = <K, V>(map: Map<K, V>, key: K, value: V): void => {
  apply(mapSet, map, [key, value]);
};
export const mapDeleteOf = <K, V>(map: Map<K, V>, key: K): void => {
  apply(mapDelete, map, [key]);
};

/** The worker's global object and its own `postMessage`, as they were before tool code ran. */
export const workerGlobal = globalThis;
export const workerPostMessage = (globalThis as unknown as { postMessage: (message: unknown) => void }).postMessage;
/** `MessagePort.prototype.postMessage` and `start`, for a worker that talks to the page over a port. */
export const portPostMessage = MessagePort.prototype.postMessage;
export const portStart = MessagePort.prototype.start;
export const addListener = EventTarget.prototype.addEventListener;
/** The worker's own `close`, kept for the death watch's locked replacement. */
export const workerClose = (globalThis as unknown as { close: () => void }).close;
const stopImmediate = Event.prototype.stopImmediatePropagation;
/** No listener added after the caller's sees this event. */
export const stopImmediatePropagation = (event: Event): void => {
  apply(stopImmediate, event, []);
};
/** What a message event carries, read through the original getters (tool code may redefine them). */
export const messageData = getter(MessageEvent.prototype, 'data');
export const messagePorts = getter(MessageEvent.prototype, 'ports') as (event: MessageEvent) => readonly MessagePort[];
export const errorEventMessage = getter(ErrorEvent.prototype, 'message') as (event: ErrorEvent) => string;
export const errorEventError = getter(ErrorEvent.prototype, 'error');
