/// <reference lib="webworker" />
/**
 * What the tool server takes from the worker's realm before tool code can: the only way to post
 * to the page, and word of the worker's death (`self.close()`, uncaught errors). Both are locked:
 * tool code can neither post nor close unnoticed.
 */
import type { WorkerToPage } from '../src/pool/protocol';
import {
  apply,
  defineProperty,
  getPrototypeOf,
  hasOwn,
  portPostMessage,
  workerGlobal,
  workerPostMessage,
} from './primordials';

/**
 * Take the worker's `postMessage` for the server alone: the global and prototype ones are
 * replaced (locked) by one that refuses, so tool code cannot post to the page.
 */
export function takePostMessage(): (message: WorkerToPage) => void {
  // The postMessage taken when moat/worker was evaluated: tool code that ran since cannot have
  // slipped its own in (through Function.prototype.bind, say).
  const refuse = function postMessage() {
    throw new TypeError('Tools cannot post messages to the page: return a result, or use runtime.emit');
  };
  for (let p: object | null = workerGlobal; p && p !== Object.prototype; p = getPrototypeOf(p)) {
    if (p === workerGlobal || hasOwn(p, 'postMessage')) {
      defineProperty(p, 'postMessage', { value: refuse, writable: false, configurable: false });
    }
  }
  return (message) => {
    apply(workerPostMessage, workerGlobal, [message]);
  };
}

/** Posting to the page over `port` (a worker hosted in a sandboxed frame), through the original method. */
export function portPoster(port: MessagePort): (message: WorkerToPage) => void {
  return (message) => {
    apply(portPostMessage, port, [message]);
  };
}

let watching = false;
/** Tell the page before the worker goes: `self.close()` (patched, locked) and uncaught errors. */
export function watchForDeath(notify: (reason: string) => void): void {
  if (watching) return;
  watching = true;
  const originalClose = self.close.bind(self);
  const close = function close() {
    notify('the worker closed itself (self.close())');
    originalClose();
  };
  for (let p: object | null = self; p && p !== Object.prototype; p = Object.getPrototypeOf(p)) {
    if (p === self || Object.hasOwn(p, 'close'))
      Object.defineProperty(p, 'close', { value: close, writable: false, configurable: false });
  }
  self.addEventListener('error', (event) => notify(`an uncaught error: ${event.message || String(event.error)}`));
}
