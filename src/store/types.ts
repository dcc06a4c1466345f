/**
 * The long-term store tools and the page share (LangGraph's BaseStore, the TypeScript way):
 * JSON values under a namespace (a path of labels) and a key.
 */
import type { JSONValue } from '../json/json-value';

export interface StoreItem {
  namespace: string[];
  key: string;
  value: JSONValue;
  /** ms since the epoch. */
  createdAt: number;
  updatedAt: number;
  /** When the item stops existing (ms since the epoch), if it was put with a `ttlMs`. */
  expiresAt?: number;
}

/** A condition on one value field: equality, or operators. */
export type FieldFilter =
  | JSONValue
  | {
      $gt?: number | string;
      $gte?: number | string;
      $lt?: number | string;
      $lte?: number | string;
      $ne?: JSONValue;
      $in?: JSONValue[];
    };

export interface StoreSearchOptions {
  /** Conditions on top-level value fields (a dotted name reaches into objects); all must hold. */
  filter?: Record<string, FieldFilter>;
  /** Default 10. */
  limit?: number;
  offset?: number;
  /**
   * Simple text matching: every whitespace-separated term must occur, case-insensitively, in
   * some string of the value (at any depth) or in the key. No ranking, no embeddings.
   */
  query?: string;
}

export interface ListNamespacesOptions {
  prefix?: string[];
  suffix?: string[];
  /** Cut namespaces to this many labels (duplicates merged). */
  maxDepth?: number;
  /** Default 100. */
  limit?: number;
  offset?: number;
}

export type StoreOp =
  | { op: 'put'; namespace: string[]; key: string; value: JSONValue; ttlMs?: number }
  | { op: 'delete'; namespace: string[]; key: string }
  | { op: 'get'; namespace: string[]; key: string };

/** Given the current value (undefined when absent), the new one; undefined deletes. Synchronous. */
export type StoreUpdater = (current: JSONValue | undefined) => JSONValue | undefined;

export interface Store {
  /** Write a value (replacing any), optionally expiring after `ttlMs`. */
  put(namespace: string[], key: string, value: JSONValue, options?: { ttlMs?: number }): Promise<void>;
  get(namespace: string[], key: string): Promise<StoreItem | undefined>;
  delete(namespace: string[], key: string): Promise<void>;
  /**
   * Read, change and write one item atomically: concurrent updates from the page and workers
   * never lose each other's writes. Returns the new item (undefined when deleted).
   */
  update(
    namespace: string[],
    key: string,
    updater: StoreUpdater,
    options?: { ttlMs?: number },
  ): Promise<StoreItem | undefined>;
  /** Items under a namespace prefix, newest first. */
  search(namespacePrefix: string[], options?: StoreSearchOptions): Promise<StoreItem[]>;
  listNamespaces(options?: ListNamespacesOptions): Promise<string[][]>;
  /** Many operations in one transaction, all or nothing; each `get` answers in its place. */
  batch(ops: readonly StoreOp[]): Promise<(StoreItem | undefined)[]>;
  /** Release the connection (IndexedDB); later calls reopen it. */
  close(): void;
}

export interface StoreOptions {
  /** The clock (ms since the epoch). Default `Date.now`. */
  now?: () => number;
}
