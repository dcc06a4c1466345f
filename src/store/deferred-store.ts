import type { JSONValue } from '../json/json-value';
import type { ListNamespacesOptions, Store, StoreItem, StoreOp, StoreSearchOptions, StoreUpdater } from './types';

/**
 * A `Store` for one that is still on its way (its code loading, say): each call waits for it,
 * then goes through unchanged. If it never comes, every call rejects with the reason.
 *
 * @example const store = deferredStore(import('./store-code').then((m) => m.open('app')));
 */
export function deferredStore(store: Promise<Store>): Store {
  return new DeferredStore(store);
}

class DeferredStore implements Store {
  readonly #store: Promise<Store>;

  constructor(store: Promise<Store>) {
    this.#store = store;
    store.catch(() => {}); // reported by each call that needs it
  }

  async put(namespace: string[], key: string, value: JSONValue, options?: { ttlMs?: number }): Promise<void> {
    return (await this.#store).put(namespace, key, value, options);
  }

  async get(namespace: string[], key: string): Promise<StoreItem | undefined> {
    return (await this.#store).get(namespace, key);
  }

  async delete(namespace: string[], key: string): Promise<void> {
    return (await this.#store).delete(namespace, key);
  }

  async update(
    namespace: string[],
    key: string,
    updater: StoreUpdater,
    options?: { ttlMs?: number },
  ): Promise<StoreItem | undefined> {
    return (await this.#store).update(namespace, key, updater, options);
  }

  async search(namespacePrefix: string[], options?: StoreSearchOptions): Promise<StoreItem[]> {
    return (await this.#store).search(namespacePrefix, options);
  }

  async listNamespaces(options?: ListNamespacesOptions): Promise<string[][]> {
    return (await this.#store).listNamespaces(options);
  }

  async batch(ops: readonly StoreOp[]): Promise<(StoreItem | undefined)[]> {
    return (await this.#store).batch(ops);
  }

  close(): void {
    this.#store.then(
      (store) => store.close(),
      () => {},
    );
  }
}
