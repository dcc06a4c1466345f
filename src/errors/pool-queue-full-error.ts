import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/** The pool's queue is full (`maxQueue`): the call was not accepted. */
export class PoolQueueFullError extends MoatError {
  static {
    registerErrorClass(PoolQueueFullError, 'PoolQueueFullError');
  }
  readonly maxQueue: number;

  constructor(options: MoatErrorOptions & { maxQueue: number }) {
    super({
      ...options,
      message: options.message ?? `The worker pool's queue is full (maxQueue ${options.maxQueue}); try again later`,
    });
    this.maxQueue = options.maxQueue;
  }
}
