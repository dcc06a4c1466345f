/** A value JSON can represent exactly: what may be stored, sent, or kept as an artifact. */
export type JSONValue = null | boolean | number | string | JSONValue[] | { [key: string]: JSONValue };

export type JSONCheck =
  | { success: true; value: JSONValue }
  | { success: false; path: (string | number)[]; reason: string };

/**
 * Copy a value as JSON data, or say where it is not: a function, a symbol, a bigint, `undefined`
 * in an array, a non-finite number, a class instance (Date, Map, …) or a cycle. `undefined`
 * object fields are dropped, as `JSON.stringify` does. `__proto__` keys stay own data.
 *
 * @example toJSONValue({ a: [1, 'x'] }) // { success: true, value: { a: [1, 'x'] } }
 * @example toJSONValue({ when: new Date() }) // { success: false, path: ['when'], reason: 'a Date' }
 */
export function toJSONValue(value: unknown): JSONCheck {
  const path: (string | number)[] = [];
  const seen = new Set<object>();
  let failure: string | undefined;

  const copy = (v: unknown): JSONValue | undefined => {
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return v;
      case 'number':
        if (Number.isFinite(v)) return v;
        failure = `a non-finite number (${v})`;
        return undefined;
      case 'object':
        break;
      default:
        failure = typeof v === 'undefined' ? 'undefined' : `a ${typeof v}`;
        return undefined;
    }
    if (v === null) return null;
    if (seen.has(v)) {
      failure = 'a circular reference';
      return undefined;
    }
    if (Array.isArray(v)) {
      seen.add(v);
      const out: JSONValue[] = [];
      for (let i = 0; i < v.length; i++) {
        path.push(i);
        const item = copy(v[i]);
        if (failure) return undefined;
        out.push(item as JSONValue);
        path.pop();
      }
      seen.delete(v);
      return out;
    }
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      failure = `a ${proto?.constructor?.name ?? 'class instance'}`;
      return undefined;
    }
    seen.add(v);
    const out: Record<string, JSONValue> = {};
    for (const key of Object.keys(v)) {
      const field = (v as Record<string, unknown>)[key];
      if (field === undefined) continue;
      path.push(key);
      const item = copy(field);
      if (failure) return undefined;
      if (key === '__proto__') {
        Object.defineProperty(out, key, { value: item, enumerable: true, writable: true, configurable: true });
      } else {
        out[key] = item as JSONValue;
      }
      path.pop();
    }
    seen.delete(v);
    return out;
  };

  const result = copy(value);
  return failure === undefined
    ? { success: true, value: result as JSONValue }
    : { success: false, path, reason: failure };
}

/** True when `value` is a plain object (`{}` or `Object.create(null)`), not an array or instance. */
export function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
