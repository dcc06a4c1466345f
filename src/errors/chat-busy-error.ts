import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/** A chat was asked to start a run while one is under way (one run at a time per chat). */
export class ChatBusyError extends MoatError {
  static {
    registerErrorClass(ChatBusyError, 'ChatBusyError');
  }
  readonly threadId: string;

  constructor(options: MoatErrorOptions & { threadId: string; action: string }) {
    super({
      ...options,
      message:
        options.message ??
        `Cannot ${options.action}: a run is under way in thread '${options.threadId}'. Wait for it to end, or stop() it first`,
    });
    this.threadId = options.threadId;
  }
}
