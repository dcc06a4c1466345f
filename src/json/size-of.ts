/**
 * The one measure of a value's size that Moat's limits use: the pool's on what workers send
 * back, the chat's on the progress it keeps.
 */
import { isPlainObject } from './json-value';

export interface SizeOptions {
  /** Only JSON data is measured; anything else is too big (`limit + 1`). */
  json?: boolean;
}

/**
 * About how many characters `value`'s JSON text would have (bytes, a Blob's size, one each),
 * counted only until it is past `limit`: a value of hundreds of megabytes is not walked whole to
 * learn that it is too big. Any structured-clone value is measured (Maps, Sets, typed arrays).
 * An object reached twice counts twice, as JSON would write it out twice: a message of a few
 * hundred bytes whose objects share each other can stand for gigabytes of text (and a cycle for
 * an endless one), and goes past any limit here. With `{ json: true }`, a value JSON would not
 * write as it is (a Map, bytes, a BigInt, a class's instance) is too big: `limit + 1`.
 *
 * @example sizeOf({ a: 'xyz' }, 1_000) // 12: `{"a":"xyz"}` has 11
 */
export function sizeOf(value: unknown, limit: number, options: SizeOptions = {}): number {
  let size = 0;
  // Values still to measure; arrays and objects are opened as they come off it.
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (typeof v !== 'object' || v === null) {
      if (options.json && typeof v === 'bigint') return limit + 1;
      size += 6;
    } else if (options.json && !Array.isArray(v) && !isPlainObject(v)) return limit + 1;
    else {
      size += 2;
      if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) size += v.byteLength;
      else if (typeof Blob !== 'undefined' && v instanceof Blob) size += v.size;
      else if (Array.isArray(v)) size += pushSome(stack, v, limit - size);
      else if (v instanceof Map || v instanceof Set)
        size += v.size > limit - size ? v.size : pushSome(stack, [...v.entries()], limit - size);
      else {
        const keys = Object.keys(v);
        for (const key of keys) size += key.length + 3;
        size += pushSome(
          stack,
          keys.map((k) => (v as Record<string, unknown>)[k]),
          limit - size,
        );
      }
    }
  }
  return size;
}

/** Push a list's items to measure; the list's own length counts (a comma each), up to `room`. */
function pushSome(stack: unknown[], items: readonly unknown[], room: number): number {
  // Each item takes at least one character: a list longer than the room is too big as it is.
  if (items.length > room) return items.length;
  for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
  return items.length;
}
