import { describeValue } from './moat-error';

/**
 * The TypeError for an option that is not an AbortSignal, or undefined when it is one (or absent).
 * Checked by shape, so a signal from another realm (an iframe's) passes.
 */
export function signalProblem(signal: unknown, name = 'signal'): TypeError | undefined {
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
    return undefined;
  return new TypeError(`Expected \`${name}\` to be an AbortSignal, got ${describeValue(signal)}`);
}

/** The TypeError for an option that should be a function (or absent), or undefined. */
export function callbackProblem(value: unknown, name: string): TypeError | undefined {
  if (value === undefined || typeof value === 'function') return undefined;
  return new TypeError(`Expected \`${name}\` to be a function, got ${describeValue(value)}`);
}
