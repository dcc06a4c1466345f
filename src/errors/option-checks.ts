/**
 * The checks on options a caller passes (pool, invoker, store, checkpointer): each throws a
 * TypeError that names the option and quotes what it got, or returns the value it accepted.
 */
import { describeValue } from './moat-error';

/** An integer of at least `min` (0 by default); `Infinity` too when `infinite`. */
export function checkCount(name: string, value: unknown, { min = 0, infinite = false } = {}): number {
  if ((typeof value === 'number' && Number.isSafeInteger(value) && value >= min) || (infinite && value === Infinity))
    return value as number;
  const what =
    min === 0 ? 'a non-negative integer' : min === 1 ? 'a positive integer' : `an integer of at least ${min}`;
  throw new TypeError(`Expected \`${name}\` to be ${what}, got ${describeValue(value)}`);
}

/** A positive number of milliseconds, `Infinity` included (no limit). */
export function checkDuration(name: string, value: unknown): number {
  if (typeof value === 'number' && value > 0) return value;
  throw new TypeError(
    `Expected \`${name}\` to be a positive number of milliseconds (or Infinity), got ${describeValue(value)}`,
  );
}

/** How a non-string result becomes text: `'string'` or `'json'` (or left out). */
export function checkResultFormat(value: unknown): 'string' | 'json' | undefined {
  if (value === undefined || value === 'string' || value === 'json') return value;
  throw new TypeError(`Expected \`resultFormat\` to be 'string' or 'json', got ${describeValue(value)}`);
}

/**
 * An AbortSignal, or nothing. Checked by shape, so a signal from another realm (an iframe's)
 * passes.
 */
export function checkSignal(signal: unknown, name = 'signal'): AbortSignal | undefined {
  if (signal === undefined) return undefined;
  const s = signal as Partial<AbortSignal> | null;
  if (
    typeof s === 'object' &&
    s !== null &&
    typeof s.aborted === 'boolean' &&
    typeof s.addEventListener === 'function' &&
    typeof s.removeEventListener === 'function' &&
    typeof s.throwIfAborted === 'function'
  )
    return signal as AbortSignal;
  throw new TypeError(`Expected \`${name}\` to be an AbortSignal, got ${describeValue(signal)}`);
}

/** A function, or nothing. */
export function checkCallback(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== 'function')
    throw new TypeError(`Expected \`${name}\` to be a function, got ${describeValue(value)}`);
}

/**
 * An http(s) URL, parsed (relative to `base` when given). `what` names it in the error: an
 * option in backticks (`` `url` ``), or a phrase.
 */
export function checkHttpUrl(value: unknown, what: string, base?: string): URL {
  let url: URL | undefined;
  try {
    url = new URL(value as string | URL, base);
  } catch {}
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new TypeError(`Expected ${what} to be an http(s) URL, got ${describeValue(value)}`);
  return url;
}
