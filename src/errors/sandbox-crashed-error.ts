import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * The code sandbox stopped answering while a script ran: its process died (most often out of
 * memory) or could not start. The page goes on; the next run gets a fresh sandbox.
 */
export class SandboxCrashedError extends MoatError {
  static {
    registerErrorClass(SandboxCrashedError, 'SandboxCrashedError');
  }
  constructor(options: MoatErrorOptions & { reason: string }) {
    super({ ...options, message: options.message ?? `The code sandbox stopped: ${options.reason}` });
  }
}
