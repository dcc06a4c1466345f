import { StorePermissionError } from '../errors/store-permission-error';
import { startsWith } from './query';
import type { Store, StoreOp } from './types';
import { checkListOptions, checkNamespace } from './validate';

/**
 * A view of a store limited to namespaces under the given prefixes: anything else is a
 * `StorePermissionError`; `listNamespaces` shows only what the view may touch.
 *
 * @example const memory = scopeStore(store, [['memory']], { toolName: 'remember' });
 */
export function scopeStore(
  store: Store,
  allowed: readonly string[][],
  who: { toolName?: string; toolCallId?: string } = {},
): Store {
  const prefixes = allowed.map((ns) => [...checkNamespace(ns)]);
  const permitted = (ns: string[]) => prefixes.some((p) => startsWith(ns, p));
  const check = (ns: unknown): void => {
    if (Array.isArray(ns) && permitted(ns as string[])) return;
    throw new StorePermissionError({
      ...who,
      namespace: Array.isArray(ns) ? (ns as string[]) : [String(ns)],
      allowed: prefixes,
    });
  };
  return {
    async put(ns, key, value, options) {
      check(ns);
      return store.put(ns, key, value, options);
    },
    async get(ns, key) {
      check(ns);
      return store.get(ns, key);
    },
    async delete(ns, key) {
      check(ns);
      return store.delete(ns, key);
    },
    async update(ns, key, updater, options) {
      check(ns);
      return store.update(ns, key, updater, options);
    },
    async search(prefix, options) {
      check(prefix);
      return store.search(prefix, options);
    },
    async listNamespaces(options = {}) {
      checkListOptions(options);
      const all = await store.listNamespaces({ ...options, limit: Number.MAX_SAFE_INTEGER, offset: 0 });
      const mine = all.filter(permitted);
      const from = Math.max(0, options.offset ?? 0);
      return mine.slice(from, from + (options.limit ?? 100));
    },
    async batch(ops: readonly StoreOp[]) {
      if (Array.isArray(ops)) for (const op of ops) check(op?.namespace); // else the store says what is wrong
      return store.batch(ops);
    },
    close: () => store.close(),
  };
}
