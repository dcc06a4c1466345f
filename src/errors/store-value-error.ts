import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/** A value the store cannot keep: not JSON data. Nothing was written. */
export class StoreValueError extends MoatError {
  static {
    registerErrorClass(StoreValueError, 'StoreValueError');
  }
  readonly path: (string | number)[];

  constructor(options: MoatErrorOptions & { path: (string | number)[]; reason: string }) {
    const where = options.path.length ? `value.${options.path.join('.')}` : 'the value';
    super({
      ...options,
      message: options.message ?? `Cannot store ${where}: it is ${options.reason}. Store values must be JSON data.`,
    });
    this.path = options.path;
  }
}
