import { describeValue } from '../errors/moat-error';
import { checkCount } from '../errors/option-checks';
import { StoreKeyError } from '../errors/store-key-error';
import { StoreValueError } from '../errors/store-value-error';
import { findNonJSON, isPlainObject } from '../json/json-value';
import type { ListNamespacesOptions, StoreOp, StoreSearchOptions } from './types';

export const MAX_LABEL_LENGTH = 256;
export const MAX_DEPTH = 16;
export const MAX_KEY_LENGTH = 1024;

function checkText(value: unknown, what: string, max: number): void {
  if (typeof value !== 'string')
    throw new StoreKeyError({ value, reason: `${what} must be a string, got ${describeValue(value)}` });
  if (value.length === 0) throw new StoreKeyError({ value, reason: `${what} must not be empty` });
  if (value.includes('\u0000')) throw new StoreKeyError({ value, reason: `${what} must not contain \\u0000` });
  if (value.length > max) throw new StoreKeyError({ value, reason: `${what} is longer than ${max} characters` });
}

/** A namespace: 1 to 16 labels, each a non-empty string without `\u0000`, at most 256 characters. */
export function checkNamespace(namespace: unknown, { allowEmpty = false } = {}): string[] {
  if (!Array.isArray(namespace))
    throw new StoreKeyError({
      value: namespace,
      reason: `a namespace must be an array of labels, got ${describeValue(namespace)}`,
    });
  if (namespace.length === 0 && !allowEmpty)
    throw new StoreKeyError({ value: namespace, reason: 'a namespace needs at least one label' });
  if (namespace.length > MAX_DEPTH)
    throw new StoreKeyError({ value: namespace, reason: `a namespace has at most ${MAX_DEPTH} labels` });
  for (const label of namespace) checkText(label, 'a namespace label', MAX_LABEL_LENGTH);
  return namespace as string[];
}

export function checkKey(key: unknown): string {
  checkText(key, 'a key', MAX_KEY_LENGTH);
  return key as string;
}

export function checkValue(value: unknown): void {
  if (value === undefined) throw new StoreValueError({ path: [], reason: 'undefined' });
  const problem = findNonJSON(value);
  if (problem) throw new StoreValueError(problem);
}

export function checkTtl(ttlMs: unknown): number | undefined {
  if (ttlMs === undefined) return undefined;
  if (typeof ttlMs !== 'number' || !(ttlMs > 0) || !Number.isFinite(ttlMs)) {
    throw new TypeError(
      `Expected \`ttlMs\` to be a positive finite number of milliseconds, got ${describeValue(ttlMs)}`,
    );
  }
  return ttlMs;
}

/** Check every operation before any is applied (a batch is all or nothing). */
export function checkOps(ops: readonly StoreOp[]): void {
  if (!Array.isArray(ops)) throw new TypeError(`Expected \`ops\` to be an array, got ${describeValue(ops)}`);
  for (const op of ops) {
    const kind = (op as { op?: unknown } | null)?.op;
    if (kind !== 'put' && kind !== 'get' && kind !== 'delete')
      throw new TypeError(`Unknown store operation ${describeValue(kind)}: expected 'put', 'get' or 'delete'`);
    checkNamespace(op.namespace);
    checkKey(op.key);
    if (op.op === 'put') {
      checkValue(op.value);
      checkTtl(op.ttlMs);
    }
  }
}

export function checkUpdater(updater: unknown): void {
  if (typeof updater !== 'function')
    throw new TypeError(`Expected \`updater\` to be a function, got ${describeValue(updater)}`);
}

/** A count option that may be left out. */
function optionalCount(name: string, value: unknown, min = 0): void {
  if (value !== undefined) checkCount(name, value, { min });
}

const RANGE_OPERATORS = new Set(['$gt', '$gte', '$lt', '$lte']);

/** One field's condition: a JSON value to equal, or an object of known operators (never both). */
function checkCondition(path: string, condition: unknown): void {
  const where = `filter field ${JSON.stringify(path)}`;
  const keys = isPlainObject(condition) ? Object.keys(condition) : [];
  const operators = keys.filter((k) => k.startsWith('$'));
  if (operators.length === 0) {
    const problem = condition === undefined ? { path: [], reason: 'undefined' } : findNonJSON(condition);
    if (problem) throw new TypeError(`The ${where} is not a JSON value: ${problem.reason}`);
    return;
  }
  if (operators.length < keys.length)
    throw new TypeError(`The ${where} mixes operators (${operators.join(', ')}) with plain fields`);
  for (const op of operators) {
    const operand = (condition as Record<string, unknown>)[op];
    if (RANGE_OPERATORS.has(op)) {
      if (!(typeof operand === 'string' || (typeof operand === 'number' && Number.isFinite(operand))))
        throw new TypeError(`The ${where}: ${op} takes a finite number or a string, got ${describeValue(operand)}`);
    } else if (op === '$in') {
      if (!Array.isArray(operand) || findNonJSON(operand))
        throw new TypeError(`The ${where}: $in takes an array of JSON values, got ${describeValue(operand)}`);
    } else if (op === '$ne') {
      if (operand === undefined || findNonJSON(operand))
        throw new TypeError(`The ${where}: $ne takes a JSON value, got ${describeValue(operand)}`);
    } else {
      throw new TypeError(`Unknown operator ${op} in the ${where}: expected $gt, $gte, $lt, $lte, $ne or $in`);
    }
  }
}

/** Search options, checked before anything is read: a filter the store cannot apply is an error, not an empty result. */
export function checkSearchOptions(options: unknown): StoreSearchOptions {
  if (options === undefined) return {};
  if (!isPlainObject(options))
    throw new TypeError(`Expected search options to be an object, got ${describeValue(options)}`);
  const { filter, limit, offset, query } = options;
  if (filter !== undefined) {
    if (!isPlainObject(filter))
      throw new TypeError(`Expected \`filter\` to be an object of field conditions, got ${describeValue(filter)}`);
    for (const [path, condition] of Object.entries(filter)) checkCondition(path, condition);
  }
  optionalCount('limit', limit);
  optionalCount('offset', offset);
  if (query !== undefined && typeof query !== 'string')
    throw new TypeError(`Expected \`query\` to be a string, got ${describeValue(query)}`);
  return options as StoreSearchOptions;
}

export function checkListOptions(options: unknown): ListNamespacesOptions {
  if (options === undefined) return {};
  if (!isPlainObject(options))
    throw new TypeError(`Expected listNamespaces options to be an object, got ${describeValue(options)}`);
  const { prefix, suffix, maxDepth, limit, offset } = options;
  if (prefix !== undefined) checkNamespace(prefix, { allowEmpty: true });
  if (suffix !== undefined) checkNamespace(suffix, { allowEmpty: true });
  optionalCount('maxDepth', maxDepth, 1);
  optionalCount('limit', limit);
  optionalCount('offset', offset);
  return options as ListNamespacesOptions;
}
