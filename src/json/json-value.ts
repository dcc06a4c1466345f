/** A value JSON can represent exactly: what may be stored, sent, or kept as an artifact. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

export type JSONCheck =
  | { success: true; value: JSONValue }
  | { success: false; path: (string | number)[]; reason: string };

/** Where a value stops being JSON data, and why. */
export interface NonJSON {
  path: (string | number)[];
  reason: string;
}

/** How deeply arrays and objects may nest in a value Moat checks, sends or stores. */
export const MAX_JSON_DEPTH = 1000;
const TOO_DEEP = `nested deeper than ${MAX_JSON_DEPTH} levels`;

/**
 * Find the first place where a value is not JSON data: a function, a symbol, a bigint,
 * `undefined` in an array, a non-finite number, a class instance (Date, Map, …), a cycle, or
 * nesting deeper than `MAX_JSON_DEPTH`.
 * `undefined` object fields are allowed (JSON drops them). Reads the value once, copies nothing.
 *
 * @example findNonJSON({ a: [1, () => 2] }) // { path: ['a', 1], reason: 'a function' }
 */
export function findNonJSON(value: unknown): NonJSON | undefined {
  const path: (string | number)[] = [];
  const open = new Set<object>();
  const visit = (v: unknown): string | undefined => {
    // The path holds one step per level: deeper than this is refused, not a stack overflow.
    if (path.length > MAX_JSON_DEPTH) return TOO_DEEP;
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return undefined;
      case 'number':
        return Number.isFinite(v) ? undefined : `a non-finite number (${v})`;
      case 'object':
        break;
      default:
        return typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`;
    }
    if (v === null) return undefined;
    if (open.has(v)) return 'a circular reference';
    if (Array.isArray(v)) {
      open.add(v);
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const reason = visit(v[i]);
        if (reason) return reason;
        path.pop();
      }
      open.delete(v);
      return undefined;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return `a ${proto?.constructor?.name ?? 'class instance'}`;
    open.add(v);
    for (const key of Object.keys(v)) {
      const field = (v as Record<string, unknown>)[key];
      if (field === undefined) continue;
      path.push(key);
      const reason = visit(field);
      if (reason) return reason;
      path.pop();
    }
    open.delete(v);
    return undefined;
  };
  const reason = visit(value);
  if (reason === undefined) return undefined;
  // A path a thousand steps long says nothing more than "the value".
  return reason === TOO_DEEP ? { path: [], reason } : { path, reason };
}

/**
 * Copy a value as JSON data, or say where it is not (see `findNonJSON`). `undefined` object
 * fields are dropped, as `JSON.stringify` does; `__proto__` keys stay own data.
 *
 * @example toJSONValue({ a: [1, 'x'] }) // { success: true, value: { a: [1, 'x'] } }
 * @example toJSONValue({ when: new Date() }) // { success: false, path: ['when'], reason: 'a Date' }
 */
export function toJSONValue(value: unknown): JSONCheck {
  const problem = findNonJSON(value);
  if (problem) return { success: false, ...problem };
  return { success: true, value: JSON.parse(JSON.stringify(value)) as JSONValue };
}

/** True when `value` is a plain object (`{}` or `Object.create(null)`), not an array or instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
