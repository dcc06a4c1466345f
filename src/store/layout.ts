/**
 * How the store lays its data out in IndexedDB: the record, the object stores, the schema version
 * and the migrations that bring an older database up to it, and the small helpers every
 * operation shares to write and read records in that layout.
 */
import { type IDBPDatabase, type IDBPTransaction, unwrap } from 'idb';
import type { JSONValue } from '../json/json-value';
import type { StoreItem } from './types';

/** An item as IndexedDB holds it, keyed by `[ns, key]` (array keys: namespace prefixes are key ranges). */
export interface StoredRecord {
  ns: string[];
  key: string;
  value: JSONValue;
  createdAt: number;
  updatedAt: number;
  expiresAt?: number;
}

export type Db = IDBPDatabase<unknown>;
export type UpgradeTx = IDBPTransaction<unknown, string[], 'versionchange'>;

/** The items, keyed `[namespace, key]` (array keys: a namespace prefix is a key range). */
export const ENTRIES = 'entries';

/** The schema version this code writes. */
export const STORE_SCHEMA_VERSION = 3;

/**
 * Each step takes the database from one version to the next; a database of any older version is
 * brought up to date and keeps its data.
 */
export const STORE_MIGRATIONS: readonly ((db: Db, tx: UpgradeTx) => void)[] = [
  // v1: the items, keyed by [namespace, key].
  (db) => void db.createObjectStore('items', { keyPath: ['ns', 'key'] }),
  // v2: an index of expiry times, so that TTL sweeps read only what expired.
  (_db, tx) => void tx.objectStore('items').createIndex('expiresAt', 'expiresAt'),
  // v3: the items move to a store whose keys are given with each write rather than read from
  // the record (a key path costs every put about as much as the put itself), and expiry times to
  // a store of their own, written only for items with a TTL (the v2 index cost every put, TTL or
  // not). Everything is carried over.
  (db, tx) => {
    const raw = unwrap(tx) as IDBTransaction;
    const rawDb = unwrap(db) as IDBDatabase;
    const entries = rawDb.createObjectStore(ENTRIES);
    const expiries = rawDb.createObjectStore('expiries');
    const cursor = raw.objectStore('items').openCursor();
    cursor.onsuccess = () => {
      const c = cursor.result;
      if (!c) {
        rawDb.deleteObjectStore('items');
        return;
      }
      const record = c.value as StoredRecord;
      entries.put(record, c.primaryKey);
      noteExpiry(expiries, record);
      c.continue();
    };
  },
];

/**
 * Expiries are keyed `[expiresAt, id]`, so the due ones are one key range; each names its item.
 * An entry whose item was since rewritten or deleted is dropped by the sweep.
 */
export function noteExpiry(expiries: IDBObjectStore, record: StoredRecord): void {
  if (record.expiresAt !== undefined)
    expiries.put({ ns: record.ns, key: record.key }, [record.expiresAt, keyId(record.ns, record.key)]);
}

export const expiriesOf = (items: IDBObjectStore) => items.transaction.objectStore('expiries');

/** Write an item under its `[namespace, key]`, and its expiry when it has one. */
export function putRecord(items: IDBObjectStore, record: StoredRecord): void {
  items.put(record, [record.ns, record.key]);
  if (record.expiresAt !== undefined) noteExpiry(expiriesOf(items), record);
}

/** Every expiry entry due at `at` (a string id sorts before any array). */
export const dueBy = (at: number) => IDBKeyRange.upperBound([at, []]);

/** What a write touches: the items and their expiries. */
export const WRITE_SCOPE = [ENTRIES, 'expiries'];

/** `[prefix]` … `[[...prefix, []]]`: every `[ns, key]` whose ns starts with prefix (an array sorts after any string). */
export function prefixRange(prefix: string[]): IDBKeyRange | undefined {
  return prefix.length === 0 ? undefined : IDBKeyRange.bound([prefix], [[...prefix, []]]);
}

export function toItem(record: StoredRecord): StoreItem {
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

/** One string per item: labels and key cannot hold `\u0000`, so joining on it is unambiguous. */
export function keyId(namespace: string[], key: string): string {
  return `${namespace.join('\u0000')}\u0000\u0000${key}`;
}
