/**
 * One run at a time per thread. Where the browser has the Web Locks API, the lock is the
 * origin's (`moat:thread:<id>`): tabs, frames and workers of one origin take turns, and a tab
 * that closes lets go. Elsewhere (Node, a page that is not a secure context), and for a thread
 * that lives in this page's memory only, it holds within this JavaScript realm: cheaper (no
 * round trip to the browser), and all such a thread needs.
 */
import { ThreadBusyError } from '../errors/thread-busy-error';

/** What a run does when another holds its thread: wait its turn (default), or fail at once. */
export type IfBusy = 'wait' | 'fail';

export interface ThreadLockOptions {
  /** Stops the wait: the promise rejects with its reason, and the lock is never taken. */
  signal?: AbortSignal | undefined;
  /** `'fail'`: reject with `ThreadBusyError` instead of waiting. Default `'wait'`. */
  ifBusy?: IfBusy | undefined;
  /** The thread lives in this realm only (no other tab can read it): the in-realm lock is enough. */
  local?: boolean | undefined;
}

/** The name under which a thread is locked (the same in every tab of the origin). */
export function threadLockName(threadId: string): string {
  return `moat:thread:${threadId}`;
}

/**
 * Take the thread's lock; resolves with the function that lets it go (call it once the run is
 * over). Rejects with `ThreadBusyError` under `ifBusy: 'fail'`, or the signal's reason.
 *
 * @example
 * const release = await lockThread('thread-1', { signal });
 * try { await work() } finally { release() }
 */
export function lockThread(threadId: string, options: ThreadLockOptions = {}): Promise<() => void> {
  const { signal, ifBusy = 'wait', local = false } = options;
  if (signal?.aborted) return Promise.reject(signal.reason);
  const name = threadLockName(threadId);
  const locks = (globalThis.navigator as Navigator | undefined)?.locks;
  if (!locks || local) return localLock(name, threadId, signal, ifBusy);
  return new Promise((resolve, reject) => {
    // The lock is held while the callback's promise is pending: resolving it lets go.
    const held = (lock: Lock | null) => {
      if (!lock) {
        reject(new ThreadBusyError({ threadId }));
        return undefined;
      }
      return new Promise<void>((release) => resolve(() => release()));
    };
    // The API refuses a signal beside ifAvailable (that request does not wait anyway).
    const request =
      ifBusy === 'fail'
        ? locks.request(name, { ifAvailable: true }, held)
        : locks.request(name, signal ? { signal } : {}, held);
    request.catch(reject);
  });
}

/** Per lock name: the promise that settles when its last holder (or waiter) is done. */
const tails = new Map<string, Promise<void>>();

/** The same lock within this realm: waiters queue behind the holder in order. */
function localLock(
  name: string,
  threadId: string,
  signal: AbortSignal | undefined,
  ifBusy: IfBusy,
): Promise<() => void> {
  const before = tails.get(name);
  if (before && ifBusy === 'fail') return Promise.reject(new ThreadBusyError({ threadId }));
  let release = () => {};
  const mine = new Promise<void>((r) => {
    release = r;
  });
  const tail = before ? before.then(() => mine) : mine;
  tails.set(name, tail);
  void tail.then(() => {
    if (tails.get(name) === tail) tails.delete(name);
  });
  if (!before) return Promise.resolve(release);
  return new Promise((resolve, reject) => {
    // Given up while waiting: its turn passes at once to whoever waits behind it.
    const onAbort = () => {
      release();
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    void before.then(() => {
      signal?.removeEventListener('abort', onAbort);
      if (!signal?.aborted) resolve(release);
    });
  });
}
