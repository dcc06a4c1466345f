import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * A run was started with `ifBusy: 'fail'` on a thread another run holds (in this tab or
 * another): nothing was done. Without that option the run waits its turn instead.
 */
export class ThreadBusyError extends MoatError {
  static {
    registerErrorClass(ThreadBusyError, 'ThreadBusyError');
  }
  readonly threadId: string;

  constructor(options: MoatErrorOptions & { threadId: string }) {
    super({
      ...options,
      message:
        options.message ??
        `Thread '${options.threadId}' is busy: another run (in this tab or another) holds it. Wait for it, or leave out \`ifBusy: 'fail'\` to wait your turn`,
    });
    this.threadId = options.threadId;
  }
}
