import { describeValue } from '../errors/moat-error';
import { StoreKeyError } from '../errors/store-key-error';
import { StoreValueError } from '../errors/store-value-error';
import { findNonJSON } from '../json/json-value';
import type { StoreOp } from './types';

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
    checkNamespace(op?.namespace);
    checkKey(op?.key);
    if (op.op === 'put') {
      checkValue(op.value);
      checkTtl(op.ttlMs);
    } else if (op.op !== 'get' && op.op !== 'delete') {
      throw new TypeError(
        `Unknown store operation ${describeValue((op as { op?: unknown }).op)}: expected 'put', 'get' or 'delete'`,
      );
    }
  }
}
