import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/** A worker could not be started or did not answer the pool's handshake. */
export class WorkerStartError extends MoatError {
  static {
    registerErrorClass(WorkerStartError, 'WorkerStartError');
  }

  constructor(options: MoatErrorOptions & { reason: string }) {
    super({ ...options, message: options.message ?? `A tool worker could not start: ${options.reason}` });
  }
}
