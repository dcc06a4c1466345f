import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/** The pool was closed: calls still queued or running were rejected, new ones are refused. */
export class PoolClosedError extends MoatError {
  static {
    registerErrorClass(PoolClosedError, 'PoolClosedError');
  }

  constructor(options: MoatErrorOptions = {}) {
    super({ ...options, message: options.message ?? 'The worker pool is closed' });
  }
}
