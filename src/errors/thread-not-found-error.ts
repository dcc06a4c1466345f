import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * A chat was asked to open a thread its agent cannot find, and the agent has no checkpointer: its
 * threads live in the page's memory, so one saved before a reload is gone. The chat shows the
 * thread empty under that id (a message starts it); the fix is a checkpointer.
 */
export class ThreadNotFoundError extends MoatError {
  static {
    registerErrorClass(ThreadNotFoundError, 'ThreadNotFoundError');
  }
  readonly threadId: string;

  constructor(options: MoatErrorOptions & { threadId: string }) {
    super({
      ...options,
      message:
        options.message ??
        `Thread '${options.threadId}' was not found: the agent has no checkpointer, so its threads live in this page's memory and a reload forgets them. Give createAgent a checkpointer (openIndexedDBCheckpointer('my-app-threads')) to keep them`,
    });
    this.threadId = options.threadId;
  }
}
