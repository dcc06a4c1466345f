import { MoatError, type MoatErrorOptions, quote, registerErrorClass } from './moat-error';

/** A namespace or key the store refuses: empty, not a string, with `\u0000`, or too long. */
export class StoreKeyError extends MoatError {
  static {
    registerErrorClass(StoreKeyError, 'StoreKeyError');
  }
  readonly value: unknown;

  constructor(options: MoatErrorOptions & { value: unknown; reason: string }) {
    super({
      ...options,
      message: options.message ?? `Invalid store namespace or key ${quote(options.value)}: ${options.reason}`,
    });
    this.value = options.value;
  }
}
