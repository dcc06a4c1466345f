import { type IDBPDatabase, type IDBPObjectStore, type IDBPTransaction, openDB } from 'idb';
import { StoreQuotaError } from '../errors/store-quota-error';
import type { JSONValue } from '../json/json-value';
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
import { checkKey, checkNamespace, checkOps, checkTtl, checkValue } from './validate';

/** An item as IndexedDB holds it, keyed by `[ns, key]` (array keys: namespace prefixes are key ranges). */
interface StoredRecord {
  ns: string[];
  key: string;
  value: JSONValue;
  createdAt: number;
  updatedAt: number;
  expiresAt?: number;
}

type Db = IDBPDatabase<unknown>;
/** Read-only transactions use only the reading half of it. */
type ItemsStore = IDBPObjectStore<unknown, ['items'], 'items', 'readwrite'>;
type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;

/** The schema version this code writes. */
export const STORE_SCHEMA_VERSION = 2;

/**
 * Each step takes the database from one version to the next; a database of any older version is
 * brought up to date and keeps its data.
 */
export const STORE_MIGRATIONS: readonly ((db: Db, tx: UpgradeTx) => void)[] = [
  // v1: the items, keyed by [namespace, key].
  (db) => void db.createObjectStore('items', { keyPath: ['ns', 'key'] }),
  // v2: an index of expiry times, so that TTL sweeps read only what expired.
  (_db, tx) => void tx.objectStore('items').createIndex('expiresAt', 'expiresAt'),
];

const SWEEP_EVERY_WRITES = 200;

/** `[prefix]` … `[[...prefix, []]]`: every `[ns, key]` whose ns starts with prefix (an array sorts after any string). */
function prefixRange(prefix: string[]): IDBKeyRange | undefined {
  return prefix.length === 0 ? undefined : IDBKeyRange.bound([prefix], [[...prefix, []]]);
}

function toItem(record: StoredRecord): StoreItem {
  const item: StoreItem = {
    namespace: record.ns,
    key: record.key,
    value: record.value,
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
  };
  if (record.expiresAt !== undefined) item.expiresAt = record.expiresAt;
  return item;
}

/** A quota failure as `StoreQuotaError` (the transaction was rolled back); anything else as it is. */
export function toStoreError(error: unknown): unknown {
  const name = (error as { name?: unknown })?.name;
  if (name === 'QuotaExceededError') return new StoreQuotaError({ cause: error });
  return error;
}

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
  readonly #name: string;
  readonly #now: () => number;
  #db: Promise<Db> | undefined;
  #writes = 0;

  constructor(name: string, now: () => number) {
    this.#name = name;
    this.#now = now;
  }

  #open(): Promise<Db> {
    if (this.#db) return this.#db;
    const forget = () => {
      this.#db = undefined;
    };
    const callbacks = {
      // A newer version wants the database (another tab): step aside, reopen on next use.
      blocking: (_current: number, _next: number | null, event: IDBVersionChangeEvent) => {
        (event.target as IDBDatabase).close();
        forget();
      },
      terminated: forget,
    };
    const opening = openDB(this.#name, STORE_SCHEMA_VERSION, {
      ...callbacks,
      upgrade(db, oldVersion, newVersion, tx) {
        for (let v = oldVersion; v < (newVersion ?? STORE_SCHEMA_VERSION); v++)
          STORE_MIGRATIONS[v]?.(db, tx as UpgradeTx);
      },
    }).catch((error: unknown) => {
      // Newer code (another tab) already upgraded it: use it as it is.
      if ((error as { name?: string })?.name === 'VersionError') return openDB(this.#name, undefined, callbacks);
      throw error;
    });
    this.#db = opening;
    opening.then(
      () => this.#sweepSoon(),
      () => forget(),
    );
    return opening;
  }

  async #run<T>(mode: IDBTransactionMode, work: (store: ItemsStore) => Promise<T>): Promise<T> {
    const db = await this.#open();
    const tx = db.transaction('items', mode);
    try {
      const result = await work(tx.objectStore('items') as unknown as ItemsStore);
      await tx.done;
      return result;
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // already finished
      }
      await tx.done.catch(() => {});
      throw toStoreError(error);
    }
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

  #wrote(count = 1): void {
    this.#writes += count;
    if (this.#writes >= SWEEP_EVERY_WRITES) {
      this.#writes = 0;
      this.#sweepSoon();
    }
  }

  /** Delete expired items, in the background: a failure here only delays the sweep. */
  #sweepSoon(): void {
    setTimeout(() => {
      this.sweep().catch(() => {});
    }, 0);
  }

  /** Delete every expired item now; returns how many. */
  async sweep(): Promise<number> {
    const at = this.#now();
    return this.#run('readwrite', async (store) => {
      let removed = 0;
      let cursor = await store.index('expiresAt').openCursor(IDBKeyRange.upperBound(at));
      while (cursor) {
        await cursor.delete();
        removed++;
        cursor = await cursor.continue();
      }
      return removed;
    });
  }

  async put(namespace: string[], key: string, value: JSONValue, options: { ttlMs?: number } = {}): Promise<void> {
    checkNamespace(namespace);
    checkKey(key);
    checkValue(value);
    const ttlMs = checkTtl(options.ttlMs);
    const at = this.#now();
    await this.#run('readwrite', async (store) => {
      const existing = this.#live((await store.get([namespace, key])) as StoredRecord | undefined, at);
      await store.put(this.#record(namespace, key, value, existing, ttlMs, at));
    });
    this.#wrote();
  }

  async get(namespace: string[], key: string): Promise<StoreItem | undefined> {
    checkNamespace(namespace);
    checkKey(key);
    const at = this.#now();
    const record = await this.#run(
      'readonly',
      (store) => store.get([namespace, key]) as Promise<StoredRecord | undefined>,
    );
    const live = this.#live(record, at);
    return live && toItem(live);
  }

  async delete(namespace: string[], key: string): Promise<void> {
    checkNamespace(namespace);
    checkKey(key);
    await this.#run('readwrite', (store) => store.delete([namespace, key]));
  }

  async update(
    namespace: string[],
    key: string,
    updater: StoreUpdater,
    options: { ttlMs?: number } = {},
  ): Promise<StoreItem | undefined> {
    checkNamespace(namespace);
    checkKey(key);
    const ttlMs = checkTtl(options.ttlMs);
    const at = this.#now();
    const result = await this.#run('readwrite', async (store) => {
      const existing = this.#live((await store.get([namespace, key])) as StoredRecord | undefined, at);
      // Synchronous between the read and the write: the transaction stays ours.
      const next = updater(existing?.value);
      if (next === undefined) {
        await store.delete([namespace, key]);
        return undefined;
      }
      checkValue(next);
      const record = this.#record(namespace, key, next, existing, ttlMs, at);
      await store.put(record);
      return toItem(record);
    });
    this.#wrote();
    return result;
  }

  async search(namespacePrefix: string[], options: StoreSearchOptions = {}): Promise<StoreItem[]> {
    checkNamespace(namespacePrefix, { allowEmpty: true });
    const at = this.#now();
    const records = (await this.#run('readonly', (store) =>
      store.getAll(prefixRange(namespacePrefix)),
    )) as StoredRecord[];
    const live = records.filter((r) => this.#live(r, at)).map(toItem);
    return finishSearch(live, options);
  }

  async listNamespaces(options: ListNamespacesOptions = {}): Promise<string[][]> {
    const at = this.#now();
    const prefix = options.prefix ? checkNamespace(options.prefix, { allowEmpty: true }) : [];
    const namespaces = await this.#run('readonly', async (store) => {
      const found: string[][] = [];
      let cursor = await store.openCursor(prefixRange(prefix));
      while (cursor) {
        const record = cursor.value as StoredRecord;
        if (this.#live(record, at)) {
          found.push(record.ns);
          // Jump past every other item of this namespace: [ns, []] sorts after all [ns, key].
          cursor = await cursor.continue([record.ns, []]);
        } else {
          cursor = await cursor.continue();
        }
      }
      return found;
    });
    return finishNamespaces(namespaces, options);
  }

  async batch(ops: readonly StoreOp[]): Promise<(StoreItem | undefined)[]> {
    checkOps(ops);
    const at = this.#now();
    const results = await this.#run('readwrite', async (store) => {
      const out: (StoreItem | undefined)[] = [];
      for (const op of ops) {
        const k = [op.namespace, op.key];
        if (op.op === 'get') {
          const live = this.#live((await store.get(k)) as StoredRecord | undefined, at);
          out.push(live && toItem(live));
        } else if (op.op === 'delete') {
          await store.delete(k);
          out.push(undefined);
        } else {
          const existing = this.#live((await store.get(k)) as StoredRecord | undefined, at);
          await store.put(this.#record(op.namespace, op.key, op.value, existing, op.ttlMs, at));
          out.push(undefined);
        }
      }
      return out;
    });
    this.#wrote(ops.length);
    return results;
  }

  close(): void {
    const db = this.#db;
    this.#db = undefined;
    db?.then((d) => d.close()).catch(() => {});
  }
}
