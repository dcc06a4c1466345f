import { StoreUnavailableError } from '../errors/store-unavailable-error';
import type { Store } from './types';

/**
 * The `runtime.store` of a tool whose runner has no store: every call rejects with
 * `StoreUnavailableError` saying what would give it one (`fix`), and nothing is read or written.
 * Better than `undefined`, which `store?.delete(…)` turns into silently doing nothing.
 *
 * @example
 * const store = unavailableStore({ toolName: 'delete_note', toolCallId }, 'pass `store` to createWorkerPool');
 * await store.delete(['notes'], 'a'); // rejects with StoreUnavailableError
 */
export function unavailableStore(who: { toolName: string; toolCallId: string }, fix: string): Store {
  const refuse = () => Promise.reject(new StoreUnavailableError({ ...who, fix }));
  return {
    put: refuse,
    get: refuse,
    delete: refuse,
    update: refuse,
    search: refuse,
    listNamespaces: refuse,
    batch: refuse,
    close() {},
  };
}
