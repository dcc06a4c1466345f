/**
 * The long-term store tools and the page share (LangGraph's BaseStore, the TypeScript way).
 * Types only here; the IndexedDB and memory implementations come with the store issue.
 */
import type { JSONValue } from '../json/json-value';

export interface StoreItem {
  namespace: string[];
  key: string;
  value: JSONValue;
  createdAt: number;
  updatedAt: number;
}

export interface StoreSearchOptions {
  /** Equality, or `{ $gt, $gte, $lt, $lte, $ne, $in }` on value fields. */
  filter?: Record<string, unknown>;
  limit?: number;
  offset?: number;
  /** Simple text matching over string values. */
  query?: string;
}

export interface ListNamespacesOptions {
  prefix?: string[];
  suffix?: string[];
  maxDepth?: number;
  limit?: number;
  offset?: number;
}

export type StoreOp =
  | { op: 'put'; namespace: string[]; key: string; value: JSONValue; ttlMs?: number }
  | { op: 'delete'; namespace: string[]; key: string }
  | { op: 'get'; namespace: string[]; key: string };

export interface Store {
  put(namespace: string[], key: string, value: JSONValue, options?: { ttlMs?: number }): Promise<void>;
  get(namespace: string[], key: string): Promise<StoreItem | undefined>;
  delete(namespace: string[], key: string): Promise<void>;
  search(namespacePrefix: string[], options?: StoreSearchOptions): Promise<StoreItem[]>;
  listNamespaces(options?: ListNamespacesOptions): Promise<string[][]>;
  /** Many operations in one transaction, all or nothing; `get`s answer in order. */
  batch(ops: StoreOp[]): Promise<(StoreItem | undefined)[]>;
}
