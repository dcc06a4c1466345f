import { errorClassForName, MoatError } from './moat-error';

/**
 * An error as plain data: what crosses `postMessage` (where a custom error class would arrive as a
 * bare `Error` named "Error") and what can be stored. `reviveError` turns it back into the class
 * it was, with its own fields (`toolName`, `toolCallId`, `issues`, …) and its `cause` chain.
 */
export interface SerializedError {
  readonly $error: 1;
  name: string;
  message: string;
  stack?: string;
  /** A serialized error, or the cause value itself when it was not an error. */
  cause?: unknown;
  /** The error's own enumerable fields, each reduced to cloneable data. */
  fields?: Record<string, unknown>;
}

const MAX_DEPTH = 8;

/** True for the envelope `serializeError` makes. */
export function isSerializedError(value: unknown): value is SerializedError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { $error?: unknown }).$error === 1 &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/**
 * Turn any thrown value into a `SerializedError` that survives structured clone and JSON.
 * A non-error (a thrown string, say) becomes an `Error` envelope whose message is that value.
 */
export function serializeError(error: unknown, depth = 0): SerializedError {
  if (!(error instanceof Error) && !isErrorLike(error)) {
    return { $error: 1, name: 'Error', message: typeof error === 'string' ? error : safeString(error) };
  }
  const e = error as Error & Record<string, unknown>;
  const out: SerializedError = { $error: 1, name: String(e.name ?? 'Error'), message: String(e.message ?? '') };
  if (typeof e.stack === 'string') out.stack = e.stack;
  if ('cause' in e && e.cause !== undefined) {
    out.cause = depth >= MAX_DEPTH ? safeString(e.cause) : toData(e.cause, depth + 1);
  }
  const fields: Record<string, unknown> = {};
  for (const key of Object.keys(e)) {
    if (key === 'name' || key === 'message' || key === 'stack' || key === 'cause') continue;
    fields[key] = toData(e[key], depth + 1);
  }
  if (Object.keys(fields).length > 0) out.fields = fields;
  return out;
}

/**
 * The inverse of `serializeError`: a Moat error comes back as its own class (so `instanceof` and
 * `isInstance` work), a built-in one (`TypeError`, …) as that, anything else as an `Error` with the
 * original `name`.
 */
export function reviveError(data: SerializedError, depth = 0): Error {
  const errorClass = errorClassForName(data.name) ?? builtInErrors[data.name];
  const proto = (errorClass ?? Error).prototype as Error;
  const error = Object.create(proto) as Error & Record<string, unknown>;
  define(error, 'message', data.message);
  if (!errorClass) define(error, 'name', data.name);
  if (data.stack !== undefined) define(error, 'stack', data.stack);
  if ('cause' in data && data.cause !== undefined) {
    define(
      error,
      'cause',
      isSerializedError(data.cause) && depth < MAX_DEPTH ? reviveError(data.cause, depth + 1) : data.cause,
    );
  }
  for (const [key, value] of Object.entries(data.fields ?? {})) {
    if (key === '__proto__') continue;
    error[key] = isSerializedError(value) && depth < MAX_DEPTH ? reviveError(value, depth + 1) : value;
  }
  return error;
}

const builtInErrors: Record<string, ErrorConstructor | undefined> = {
  __proto__: null as never,
  Error,
  TypeError,
  RangeError,
  SyntaxError,
  ReferenceError,
  EvalError,
  URIError,
  AggregateError: AggregateError as unknown as ErrorConstructor,
};

function define(target: object, key: string, value: unknown): void {
  Object.defineProperty(target, key, { value, writable: true, configurable: true, enumerable: false });
}

function isErrorLike(value: unknown): boolean {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { name?: unknown }).name === 'string' &&
    typeof (value as { message?: unknown }).message === 'string'
  );
}

/** Reduce a field value to something structured clone and JSON both accept. */
function toData(value: unknown, depth: number): unknown {
  if (value instanceof Error || MoatError.isInstance(value)) return serializeError(value, depth);
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (value === undefined) return undefined;
  if (typeof value !== 'object') return safeString(value);
  if (depth > MAX_DEPTH) return safeString(value);
  if (Array.isArray(value)) return value.map((v) => toData(v, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return safeString(value);
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (k === '__proto__')
      Object.defineProperty(out, k, {
        value: toData(v, depth + 1),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[k] = toData(v, depth + 1);
  }
  return out;
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'object' && value !== null ? (JSON.stringify(value) ?? String(value)) : String(value);
  } catch {
    return Object.prototype.toString.call(value);
  }
}
