/**
 * One IndexedDB transaction driven by request callbacks, not a promise per request: the body
 * issues requests, records its answer in `out.value`, and the promise settles when the
 * transaction completes or rolls back. A quota failure becomes `StoreQuotaError`.
 */
import { StoreQuotaError } from '../errors/store-quota-error';

/**
 * Wraps a request callback: an error thrown in it aborts the transaction, and the promise
 * rejects with that error rather than the abort.
 */
export type Guard = <A extends unknown[]>(fn: (...args: A) => void) => (...args: A) => void;

/** A quota failure as `StoreQuotaError` (the transaction was rolled back); anything else as it is. */
export function toStoreError(error: unknown): unknown {
  const name = (error as { name?: unknown })?.name;
  if (name === 'QuotaExceededError') return new StoreQuotaError({ cause: error });
  return error;
}

/**
 * Run `body` on `tx` (it gets the store named `first`): resolves with `out.value` once the
 * transaction completes, rejects with what rolled it back.
 */
export function runTransaction<T>(
  tx: IDBTransaction,
  first: string,
  body: (store: IDBObjectStore, out: { value?: T }, guard: Guard) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const out: { value?: T } = {};
    let thrown: { error: unknown } | undefined;
    const guard: Guard = (fn) =>
      function (this: unknown, ...args: unknown[]) {
        if (thrown) return;
        try {
          fn.apply(this, args as never);
        } catch (error) {
          thrown = { error };
          try {
            tx.abort();
          } catch {
            // already finishing
          }
        }
      };
    tx.oncomplete = () => resolve(out.value as T);
    tx.onabort = () =>
      reject(
        thrown ? thrown.error : toStoreError(tx.error ?? new DOMException('The transaction was aborted', 'AbortError')),
      );
    guard(() => body(tx.objectStore(first), out, guard))();
  });
}
