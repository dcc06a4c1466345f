import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/** A stored checkpoint is malformed (its messages or fields do not read back). */
export class CheckpointError extends MoatError {
  static {
    registerErrorClass(CheckpointError, 'CheckpointError');
  }
  readonly threadId: string | undefined;

  constructor(options: MoatErrorOptions & { threadId?: string; reason: string }) {
    super({
      ...options,
      message:
        options.message ??
        `Checkpoint${options.threadId ? ` of thread '${options.threadId}'` : ''} is unusable: ${options.reason}`,
    });
    this.threadId = options.threadId;
  }
}
