/**
 * The base of every error Moat throws, and the pattern each one follows:
 * a fixed `name` (on the prototype, like the built-in errors), a constructor taking one options
 * object, a message that quotes the bad value, `cause` kept, and a static `isInstance` that also
 * recognises an error that crossed `postMessage` or IndexedDB as a plain `{ name, message }`.
 */

type AnyErrorClass = abstract new (...args: never[]) => Error;

const classesByName = new Map<string, AnyErrorClass>();

/**
 * Give an error class its `name` and make it known to `isInstance` and to the reviver of
 * serialized errors. Called once, from the class's static block.
 */
export function registerErrorClass(errorClass: AnyErrorClass, name: string): void {
  if (classesByName.has(name)) throw new TypeError(`Error class name '${name}' is registered twice`);
  Object.defineProperty(errorClass.prototype, 'name', {
    value: name,
    writable: true,
    configurable: true,
    enumerable: false,
  });
  classesByName.set(name, errorClass);
}

/** The registered Moat error class for `name`, if any. */
export function errorClassForName(name: string): AnyErrorClass | undefined {
  return classesByName.get(name);
}

export interface MoatErrorOptions {
  /** Replaces the default message. */
  message?: string;
  /** The underlying error or value, kept as `error.cause`. */
  cause?: unknown;
}

/**
 * Base class of all Moat errors.
 *
 * @example
 * try { await pool.call(call) } catch (e) { if (MoatError.isInstance(e)) console.warn(e.name, e.message) }
 */
export class MoatError extends Error {
  static {
    registerErrorClass(MoatError, 'MoatError');
  }

  constructor(options: MoatErrorOptions = {}) {
    super(options.message ?? 'Moat error', 'cause' in options ? { cause: options.cause } : undefined);
  }

  /**
   * True for an instance of this class or a subclass, and for any object whose `name` is that of
   * this class or a subclass: what is left of an error after `postMessage`, JSON or another realm.
   */
  static isInstance<T extends Error>(this: abstract new (...args: never[]) => T, value: unknown): value is T {
    if (value instanceof this) return true;
    if (typeof value !== 'object' || value === null) return false;
    const name = (value as { name?: unknown }).name;
    if (typeof name !== 'string') return false;
    const known = classesByName.get(name);
    return known !== undefined && (known === this || known.prototype instanceof this);
  }
}

/** `JSON.stringify`-based quoting for error messages: short, and safe for any value. */
export function quote(value: unknown, max = 80): string {
  let text: string;
  if (typeof value === 'string') text = `'${value}'`;
  else if (typeof value === 'bigint') text = `${value}n`;
  else if (typeof value === 'function') text = `function ${value.name || '(anonymous)'}`;
  else if (typeof value === 'symbol') text = value.toString();
  else {
    try {
      text = JSON.stringify(value) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** `'x' (string)`, `-1 (number)`: a bad value and its type, for option-validation messages. */
export function describeValue(value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return `\`${quote(value)}\` (${type})`;
}
