/** The parts of search and listNamespaces both store implementations share. */
import type { JSONValue } from '../json/json-value';
import type { FieldFilter, ListNamespacesOptions, StoreItem, StoreSearchOptions } from './types';

export function startsWith(namespace: readonly string[], prefix: readonly string[]): boolean {
  if (prefix.length > namespace.length) return false;
  for (let i = 0; i < prefix.length; i++) if (namespace[i] !== prefix[i]) return false;
  return true;
}

export function endsWith(namespace: readonly string[], suffix: readonly string[]): boolean {
  if (suffix.length > namespace.length) return false;
  const offset = namespace.length - suffix.length;
  for (let i = 0; i < suffix.length; i++) if (namespace[offset + i] !== suffix[i]) return false;
  return true;
}

/** Label by label, a namespace before those it prefixes (the order IndexedDB keeps array keys in). */
export function compareNamespaces(a: readonly string[], b: readonly string[]): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a[i] as string;
    const y = b[i] as string;
    if (x !== y) return x < y ? -1 : 1;
  }
  return a.length - b.length;
}

function field(value: JSONValue, path: string): JSONValue | undefined {
  let node: JSONValue | undefined = value;
  for (const step of path.split('.')) {
    if (typeof node !== 'object' || node === null || Array.isArray(node) || !Object.hasOwn(node, step))
      return undefined;
    node = (node as Record<string, JSONValue>)[step];
  }
  return node;
}

function equal(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  return ka.every(
    (k) => Object.hasOwn(b, k) && equal((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]),
  );
}

const OPERATORS = new Set(['$gt', '$gte', '$lt', '$lte', '$ne', '$in']);

function isOperatorObject(condition: FieldFilter): condition is Extract<FieldFilter, { $gt?: unknown }> {
  if (typeof condition !== 'object' || condition === null || Array.isArray(condition)) return false;
  const keys = Object.keys(condition);
  return keys.length > 0 && keys.every((k) => OPERATORS.has(k));
}

function comparable(a: unknown, b: unknown): boolean {
  return (typeof a === 'number' && typeof b === 'number') || (typeof a === 'string' && typeof b === 'string');
}

function matchesCondition(actual: JSONValue | undefined, condition: FieldFilter): boolean {
  if (!isOperatorObject(condition)) return equal(actual, condition);
  const c = condition as Record<string, unknown>;
  if ('$gt' in c && !(comparable(actual, c.$gt) && (actual as number) > (c.$gt as number))) return false;
  if ('$gte' in c && !(comparable(actual, c.$gte) && (actual as number) >= (c.$gte as number))) return false;
  if ('$lt' in c && !(comparable(actual, c.$lt) && (actual as number) < (c.$lt as number))) return false;
  if ('$lte' in c && !(comparable(actual, c.$lte) && (actual as number) <= (c.$lte as number))) return false;
  if ('$ne' in c && equal(actual, c.$ne)) return false;
  if ('$in' in c && !(Array.isArray(c.$in) && c.$in.some((v) => equal(actual, v)))) return false;
  return true;
}

export function matchesFilter(value: JSONValue, filter: StoreSearchOptions['filter']): boolean {
  if (!filter) return true;
  return Object.entries(filter).every(([path, condition]) => matchesCondition(field(value, path), condition));
}

function collectStrings(value: JSONValue, out: string[]): void {
  if (typeof value === 'string') out.push(value.toLowerCase());
  else if (Array.isArray(value)) for (const v of value) collectStrings(v, out);
  else if (typeof value === 'object' && value !== null) for (const v of Object.values(value)) collectStrings(v, out);
}

export function matchesQuery(item: StoreItem, query: string | undefined): boolean {
  const terms = (query ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return true;
  const haystack: string[] = [item.key.toLowerCase()];
  collectStrings(item.value, haystack);
  return terms.every((term) => haystack.some((s) => s.includes(term)));
}

function page<T>(items: T[], limit: number | undefined, offset: number | undefined, defaultLimit: number): T[] {
  const from = Math.max(0, offset ?? 0);
  return items.slice(from, from + Math.max(0, limit ?? defaultLimit));
}

/** Filter, query, newest first, page: given the live items under the prefix. */
export function finishSearch(items: StoreItem[], options: StoreSearchOptions = {}): StoreItem[] {
  const hits = items.filter((item) => matchesFilter(item.value, options.filter) && matchesQuery(item, options.query));
  hits.sort((a, b) => b.updatedAt - a.updatedAt || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return page(hits, options.limit, options.offset, 10);
}

/** Prefix, suffix, depth, dedupe, order, page: given every namespace in use. */
export function finishNamespaces(namespaces: Iterable<string[]>, options: ListNamespacesOptions = {}): string[][] {
  const seen = new Map<string, string[]>();
  for (const ns of namespaces) {
    if (options.prefix && !startsWith(ns, options.prefix)) continue;
    if (options.suffix && !endsWith(ns, options.suffix)) continue;
    const cut = options.maxDepth !== undefined ? ns.slice(0, Math.max(0, options.maxDepth)) : ns;
    seen.set(JSON.stringify(cut), cut);
  }
  const sorted = [...seen.values()].sort(compareNamespaces);
  return page(sorted, options.limit, options.offset, 100);
}
