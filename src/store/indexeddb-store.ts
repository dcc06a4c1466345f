import type { JSONValue } from '../json/json-value';
import { StoreConnection } from './connection';
import { readExisting } from './existing-records';
import { sweepExpired } from './expiry-sweep';
import { expiriesOf, keyId, noteExpiry, prefixRange, putRecord, type StoredRecord, toItem } from './layout';
import { finishNamespaces, finishSearch } from './query';
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

/** Expired items are swept when the store opens, then at most this often (by the store's clock) as writes come. */
export const SWEEP_INTERVAL_MS = 60_000;

/**
 * The store in IndexedDB: survives reloads, and the page and every tool worker of the origin see
 * the same data. Writes are transactions; `update` and `batch` are atomic. Expired items are never
 * returned and are swept lazily. Another tab opening a newer schema makes this connection close
 * and reopen on next use, rather than block it.
 *
 * @example
 * const store = openIndexedDBStore('my-app-memory');
 * await store.put(['memory'], 'favourite-tea', { name: 'sencha' }, { ttlMs: 86_400_000 });
 */
export function openIndexedDBStore(name: string, options: StoreOptions = {}): Store {
  if (typeof name !== 'string' || name === '')
    throw new TypeError(`Expected a database name, got ${JSON.stringify(name)}`);
  return new IndexedDBStore(name, options.now ?? Date.now);
}

class IndexedDBStore implements Store {
  readonly #now: () => number;
  readonly #connection: StoreConnection;
  /** When the last sweep started (the store's clock); a write after the interval starts the next. */
  #sweptAt = Number.NEGATIVE_INFINITY;

  constructor(name: string, now: () => number) {
    this.#now = now;
    this.#connection = new StoreConnection(name, () => this.#sweepSoon());
  }

  #live(record: StoredRecord | undefined, at: number): StoredRecord | undefined {
    return record && (record.expiresAt === undefined || record.expiresAt > at) ? record : undefined;
  }

  #record(
    ns: string[],
    key: string,
    value: JSONValue,
    existing: StoredRecord | undefined,
    ttlMs: number | undefined,
    at: number,
  ): StoredRecord {
    const record: StoredRecord = { ns, key, value, createdAt: existing?.createdAt ?? at, updatedAt: at };
    if (ttlMs !== undefined) record.expiresAt = at + ttlMs;
    return record;
  }

  #wrote(): void {
    if (this.#now() - this.#sweptAt >= SWEEP_INTERVAL_MS) this.#sweepSoon();
  }

  /** Delete expired items, in the background: a failure here only delays the sweep. */
  #sweepSoon(): void {
    this.#sweptAt = this.#now();
    setTimeout(() => {
      this.sweep().catch(() => {});
    }, 0);
  }

  /**
   * Delete every expired item now; returns how many. A read-only look comes first, so a store
   * with nothing expired never takes a write lock for it.
   */
  sweep(): Promise<number> {
    return sweepExpired(this.#connection, this.#now());
  }

  async put(namespace: string[], key: string, value: JSONValue, options: { ttlMs?: number } = {}): Promise<void> {
    checkNamespace(namespace);
    checkKey(key);
    checkValue(value);
    const ttlMs = checkTtl(options.ttlMs);
    const at = this.#now();
    await this.#connection.transact<void>('readwrite', (store, _out, guard) => {
      // A new key: one `add`, as cheap as a bare put. An existing one: the add fails, and only
      // then is the old record read, to keep its createdAt.
      const fresh = this.#record(namespace, key, value, undefined, ttlMs, at);
      const add = store.add(fresh, [namespace, key]);
      if (fresh.expiresAt !== undefined) noteExpiry(expiriesOf(store), fresh);
      add.onerror = guard((event: Event) => {
        if (add.error?.name !== 'ConstraintError') return; // anything else rolls the transaction back
        event.preventDefault();
        const existing = store.get([namespace, key]);
        existing.onsuccess = guard(() => {
          const live = this.#live(existing.result, at);
          putRecord(store, live ? { ...fresh, createdAt: live.createdAt } : fresh);
        });
      });
    });
    this.#wrote();
  }

  async get(namespace: string[], key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace);
    checkKey(key);
    const at = this.#now();
    const record = await this.#connection.transact<StoredRecord | undefined>('readonly', (store, out, guard) => {
      const request = store.get([namespace, key]);
      request.onsuccess = guard(() => {
        out.value = request.result;
      });
    });
    const live = this.#live(record, at);
    return live && toItem(live);
  }

  async delete(namespace: string[], key: string): Promise<void> {
    checkNamespace(namespace);
    checkKey(key);
    await this.#connection.transact<void>('readwrite', (store) => {
      store.delete([namespace, key]);
    });
  }

  async update(
    namespace: string[],
    key: string,
    updater: StoreUpdater,
    options: { ttlMs?: number } = {},
  ): Promise<StoreItem | undefined> {
    checkNamespace(namespace);
    checkKey(key);
    checkUpdater(updater);
    const ttlMs = checkTtl(options.ttlMs);
    const at = this.#now();
    const result = await this.#connection.transact<StoreItem | undefined>('readwrite', (store, out, guard) => {
      const request = store.get([namespace, key]);
      request.onsuccess = guard(() => {
        const existing = this.#live(request.result, at);
        // Synchronous between the read and the write: the transaction stays ours.
        const next = updater(existing?.value);
        if (next === undefined) {
          store.delete([namespace, key]);
          out.value = undefined;
          return;
        }
        checkValue(next);
        const record = this.#record(namespace, key, next, existing, ttlMs, at);
        putRecord(store, record);
        out.value = toItem(record);
      });
    });
    this.#wrote();
    return result;
  }

  async search(namespacePrefix: string[], options?: StoreSearchOptions): Promise<StoreItem[]> {
    checkNamespace(namespacePrefix, { allowEmpty: true });
    checkSearchOptions(options);
    const at = this.#now();
    const records = await this.#connection.transact<StoredRecord[]>('readonly', (store, out, guard) => {
      const request = store.getAll(prefixRange(namespacePrefix));
      request.onsuccess = guard(() => {
        out.value = request.result;
      });
    });
    return finishSearch(records.filter((r) => this.#live(r, at)).map(toItem), options);
  }

  async listNamespaces(options?: ListNamespacesOptions): Promise<string[][]> {
    checkListOptions(options);
    const at = this.#now();
    const prefix = options?.prefix ?? [];
    const namespaces = await this.#connection.transact<string[][]>('readonly', (store, out, guard) => {
      out.value = [];
      const cursor = store.openCursor(prefixRange(prefix));
      cursor.onsuccess = guard(() => {
        const c = cursor.result;
        if (!c) return;
        const record = c.value as StoredRecord;
        if (this.#live(record, at)) {
          out.value?.push(record.ns);
          // Jump past every other item of this namespace: [ns, []] sorts after all [ns, key].
          c.continue([record.ns, []]);
        } else {
          c.continue();
        }
      });
    });
    return finishNamespaces(namespaces, options);
  }

  async batch(ops: readonly StoreOp[]): Promise<(StoreItem | undefined)[]> {
    checkOps(ops);
    const at = this.#now();
    const onlyPuts = ops.every((op) => op.op === 'put');
    let records: (StoredRecord | undefined)[];
    try {
      records = await this.#batch(ops, at, onlyPuts);
    } catch (error) {
      if (error !== SPARSE) throw error;
      records = await this.#batch(ops, at, false); // rolled back: do it the careful way
    }
    this.#wrote();
    return records.map((record) => {
      const live = this.#live(record, at);
      return live && toItem(live);
    });
  }

  #batch(ops: readonly StoreOp[], at: number, pipelined: boolean): Promise<(StoredRecord | undefined)[]> {
    return this.#connection.transact<(StoredRecord | undefined)[]>('readwrite', (store, out, guard) => {
      const results: (StoredRecord | undefined)[] = new Array(ops.length).fill(undefined);
      out.value = results;
      if (pipelined) {
        // Only puts: ask for what they replace, then write everything in the same breath (the
        // reads were asked first, so they see the old records), then rewrite only the records
        // that existed, to keep their createdAt. All inside this transaction.
        const written: StoredRecord[] = [];
        readExisting(
          store,
          ops,
          guard,
          (existing) => {
            if (existing.size === 0) return; // all new: nothing to rewrite
            const last = new Map<string, StoredRecord>();
            for (const record of written) last.set(keyId(record.ns, record.key), record);
            for (const [id, before] of existing) {
              const live = this.#live(before, at);
              const record = last.get(id);
              if (live && record) putRecord(store, { ...record, createdAt: live.createdAt });
            }
          },
          () => {
            throw SPARSE;
          },
        );
        for (const op of ops as Extract<StoreOp, { op: 'put' }>[]) {
          const record = this.#record(op.namespace, op.key, op.value, undefined, op.ttlMs, at);
          written.push(record);
          putRecord(store, record);
        }
        return;
      }
      // First what the puts replace (for createdAt); then every operation in order, without
      // waiting on each: the transaction applies requests in the order they were made.
      readExisting(store, ops, guard, (existing) => {
        for (const [i, op] of ops.entries()) {
          const k = [op.namespace, op.key];
          const id = keyId(op.namespace, op.key);
          if (op.op === 'get') {
            const request = store.get(k);
            request.onsuccess = guard(() => {
              results[i] = request.result;
            });
          } else if (op.op === 'delete') {
            existing.set(id, undefined);
            store.delete(k);
          } else {
            const record = this.#record(op.namespace, op.key, op.value, this.#live(existing.get(id), at), op.ttlMs, at);
            existing.set(id, record);
            putRecord(store, record);
          }
        }
      });
    });
  }

  close(): void {
    this.#connection.close();
  }
}

/** Thrown (and caught by `batch`) when a pipelined batch must be redone the careful way. */
const SPARSE = Symbol('sparse batch');
