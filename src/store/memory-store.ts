import type { JSONValue } from '../json/json-value';
import { finishNamespaces, finishSearch, startsWith } from './query';
import type {
  ListNamespacesOptions,
  Store,
  StoreItem,
  StoreOp,
  StoreOptions,
  StoreSearchOptions,
  StoreUpdater,
} from './types';
import {
  checkKey,
  checkListOptions,
  checkNamespace,
  checkOps,
  checkSearchOptions,
  checkTtl,
  checkUpdater,
  checkValue,
} from './validate';

/**
 * A store in memory, with the same behaviour as the IndexedDB one (for tests, Node, and data
 * that need not survive a reload). Values are copied in and out: no caller shares an object
 * with the store.
 *
 * @example
 * const store = createMemoryStore();
 * await store.put(['memory', 'user-1'], 'likes', { food: 'tea' });
 */
export function createMemoryStore(options: StoreOptions = {}): Store {
  const now = options.now ?? Date.now;
  const items = new Map<string, StoreItem>();
  const id = (ns: string[], key: string) => JSON.stringify([ns, key]);
  const copy = (item: StoreItem): StoreItem => structuredClone(item);
  const live = (item: StoreItem | undefined, at: number) =>
    item && (item.expiresAt === undefined || item.expiresAt > at) ? item : undefined;

  const read = (ns: string[], key: string, at: number): StoreItem | undefined => {
    const k = id(ns, key);
    const item = items.get(k);
    if (item && !live(item, at)) items.delete(k); // swept lazily
    return live(item, at);
  };

  const write = (ns: string[], key: string, value: JSONValue, ttlMs: number | undefined, at: number): StoreItem => {
    const existing = read(ns, key, at);
    const item: StoreItem = {
      namespace: [...ns],
      key,
      value: structuredClone(value),
      createdAt: existing?.createdAt ?? at,
      updatedAt: at,
    };
    if (ttlMs !== undefined) item.expiresAt = at + ttlMs;
    items.set(id(ns, key), item);
    return item;
  };

  const store: Store = {
    async put(namespace, key, value, opts = {}) {
      checkNamespace(namespace);
      checkKey(key);
      checkValue(value);
      write(namespace, key, value, checkTtl(opts.ttlMs), now());
    },
    async get(namespace, key) {
      checkNamespace(namespace);
      checkKey(key);
      const item = read(namespace, key, now());
      return item && copy(item);
    },
    async delete(namespace, key) {
      checkNamespace(namespace);
      checkKey(key);
      items.delete(id(namespace, key));
    },
    async update(namespace: string[], key: string, updater: StoreUpdater, opts: { ttlMs?: number } = {}) {
      checkNamespace(namespace);
      checkUpdater(updater);
      checkKey(key);
      const ttlMs = checkTtl(opts.ttlMs);
      const at = now();
      const current = read(namespace, key, at);
      const next = updater(current ? structuredClone(current.value) : undefined);
      if (next === undefined) {
        items.delete(id(namespace, key));
        return undefined;
      }
      checkValue(next);
      return copy(write(namespace, key, next, ttlMs, at));
    },
    async search(prefix: string[], opts?: StoreSearchOptions) {
      checkNamespace(prefix, { allowEmpty: true });
      checkSearchOptions(opts);
      const at = now();
      const under = [...items.values()].filter((item) => live(item, at) && startsWith(item.namespace, prefix));
      return finishSearch(under, opts).map(copy);
    },
    async listNamespaces(opts?: ListNamespacesOptions) {
      checkListOptions(opts);
      const at = now();
      return finishNamespaces(
        [...items.values()].filter((item) => live(item, at)).map((item) => item.namespace),
        opts,
      );
    },
    async batch(ops: readonly StoreOp[]) {
      checkOps(ops);
      const at = now();
      // Everything was checked first, so applying cannot fail halfway.
      return ops.map((op) => {
        if (op.op === 'put') {
          write(op.namespace, op.key, op.value, op.ttlMs, at);
          return undefined;
        }
        if (op.op === 'delete') {
          items.delete(id(op.namespace, op.key));
          return undefined;
        }
        const item = read(op.namespace, op.key, at);
        return item && copy(item);
      });
    },
    close() {},
  };
  return store;
}
