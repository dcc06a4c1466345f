import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * A checkpoint was not written because the thread already has it: another writer saved that
 * step first (two runs on one thread that were not kept apart). What was saved is kept as it was.
 */
export class CheckpointConflictError extends MoatError {
  static {
    registerErrorClass(CheckpointConflictError, 'CheckpointConflictError');
  }
  readonly threadId: string;
  readonly checkpointId: string;

  constructor(options: MoatErrorOptions & { threadId: string; checkpointId: string }) {
    super({
      ...options,
      message:
        options.message ??
        `Thread '${options.threadId}' already has checkpoint '${options.checkpointId}': another run saved this step first. Nothing was overwritten`,
    });
    this.threadId = options.threadId;
    this.checkpointId = options.checkpointId;
  }
}
