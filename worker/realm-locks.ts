/// <reference lib="webworker" />
/**
 * What the tool server takes from the worker's realm, all of it when `moat-sdk/worker` is evaluated
 * (`lockRealm`), before any module imported after it runs: the only way to post to the page, the
 * page's messages (no listener added later sees them), and word of the worker's death
 * (`self.close()`, uncaught errors). Tool code can neither post, nor read or forge what the page
 * says, nor close the worker unnoticed. Everything here runs on built-ins taken by
 * `./primordials`, so it holds when tool code replaces `EventTarget.prototype.addEventListener`,
 * `MessageEvent.prototype.data` or `Array.prototype` setters later on.
 *
 * In a sealed worker these locks are taken by Moat's runtime (`./sealed-runtime`), before any
 * module of the tools. In a plain one, code that ran before `moat-sdk/worker` was evaluated is not
 * stopped: it may hold the originals (`postMessage`, `close`) or have replaced what these locks
 * take. Import `moat-sdk/worker` first.
 */
import {
  addListener,
  apply,
  defineProperty,
  errorEventError,
  errorEventMessage,
  getPrototypeOf,
  hasOwn,
  messageData,
  messagePorts,
  ObjectPrototype,
  portPostMessage,
  StringOf,
  stopImmediatePropagation,
  workerClose,
  workerGlobal,
  workerPostMessage,
} from './primordials';

/** A message from the page as the server reads it: read once, through the original getters. */
export type PageMessage = { readonly isTrusted: true; readonly data: unknown; readonly ports: readonly MessagePort[] };

/** Messages that came before the server listened, in order (own fields only: no setter is met). */
type Held = { message: PageMessage; next: Held | undefined };

let poster: ((message: object) => void) | undefined;
let receiver: ((message: PageMessage) => void) | undefined;
let heldFirst: Held | undefined;
let heldLast: Held | undefined;
let listening = false;
let watching = false;
let notifyDeath: ((reason: string) => void) | undefined;

/** Take every lock: called when the sealed runtime or a plain worker's `moat-sdk/worker` is evaluated. Idempotent. */
export function lockRealm(): void {
  takePostMessage();
  takeMessages();
  startDeathWatch();
}

/** Replace `key` on the worker's global and on every prototype of it that owns one, locked. */
function lockOnGlobal(key: string, value: unknown): void {
  for (let p: object | null = workerGlobal; p && p !== ObjectPrototype; p = getPrototypeOf(p)) {
    if (p === workerGlobal || hasOwn(p, key)) defineProperty(p, key, { value, writable: false, configurable: false });
  }
}

/**
 * The worker's `postMessage`, for the server alone: the global and prototype ones are replaced
 * (locked) by one that refuses, so tool code cannot post to the page. The first call locks; every
 * call returns the same poster.
 */
export function takePostMessage(): (message: object) => void {
  if (poster) return poster;
  // The postMessage taken when moat-sdk/worker was evaluated: tool code that ran since cannot have
  // slipped its own in (through Function.prototype.bind, say).
  lockOnGlobal('postMessage', function postMessage() {
    throw new TypeError('Tools cannot post messages to the page: return a result, or use runtime.emit');
  });
  poster = (message) => {
    apply(workerPostMessage, workerGlobal, [message]);
  };
  return poster;
}

/** Posting to the page over `port` (a worker hosted in a sandboxed frame), through the original method. */
export function portPoster(port: MessagePort): (message: object) => void {
  return (message) => {
    apply(portPostMessage, port, [message]);
  };
}

function read(event: MessageEvent): PageMessage {
  return { isTrusted: true, data: messageData(event), ports: messagePorts(event) };
}

/**
 * Listen to the worker's global for the page's messages, first of all listeners: each trusted
 * message stops there (listeners tool code adds later never see it) and goes to the server, or
 * waits for it. Events tool code dispatches itself (untrusted) are left alone.
 */
function takeMessages(): void {
  if (listening) return;
  listening = true;
  apply(addListener, workerGlobal, [
    'message',
    (event: MessageEvent) => {
      if (!event.isTrusted) return;
      stopImmediatePropagation(event);
      const message = read(event);
      if (receiver) {
        receiver(message);
        return;
      }
      const held: Held = { message, next: undefined };
      if (heldLast) heldLast.next = held;
      else heldFirst = held;
      heldLast = held;
    },
  ]);
}

/**
 * Where the page's messages go: on the worker's global (those that came before are handed over
 * at once, in order), or, given a `port` (a worker hosted in a sandboxed frame), on that port.
 * The global's receiver is set once.
 */
export function receivePageMessages(listener: (message: PageMessage) => void, port?: MessagePort): void {
  if (port) {
    apply(addListener, port, [
      'message',
      (event: MessageEvent) => {
        if (event.isTrusted) listener(read(event));
      },
    ]);
    return;
  }
  takeMessages();
  if (receiver) throw new TypeError('The page’s messages already have a receiver');
  receiver = listener;
  for (let held = heldFirst; held; held = held.next) listener(held.message);
  heldFirst = undefined;
  heldLast = undefined;
}

/** What an uncaught error says, read through the original getters; never throws. */
function describeError(event: ErrorEvent): string {
  try {
    const message = errorEventMessage(event);
    return message || StringOf(errorEventError(event));
  } catch {
    return 'an error that cannot be read';
  }
}

/**
 * `self.close()` is replaced (locked) by one that tells the server first; uncaught errors are
 * watched by a listener added through the original `addEventListener`. Who is told is set later
 * (`watchForDeath`); until then, nothing is said (there is no page to tell yet).
 */
function startDeathWatch(): void {
  if (watching) return;
  watching = true;
  lockOnGlobal('close', function close() {
    notifyDeath?.('the worker closed itself (self.close())');
    apply(workerClose, workerGlobal, []);
  });
  apply(addListener, workerGlobal, [
    'error',
    (event: ErrorEvent) => {
      if (event.isTrusted && notifyDeath) notifyDeath(`an uncaught error: ${describeError(event)}`);
    },
  ]);
}

/** Tell `notify` before the worker goes: `self.close()` and uncaught errors. The first caller is told. */
export function watchForDeath(notify: (reason: string) => void): void {
  startDeathWatch();
  notifyDeath ??= notify;
}
