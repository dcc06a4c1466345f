import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * A code sandbox run ended without an answer: the sandbox's process died (most often out of
 * memory) or could not start, its side sent a message the page cannot read, or the sandbox was
 * closed. The page goes on; the next run gets a fresh worker (and, after a death, a fresh frame).
 */
export class SandboxCrashedError extends MoatError {
  static {
    registerErrorClass(SandboxCrashedError, 'SandboxCrashedError');
  }
  constructor(options: MoatErrorOptions & { reason: string }) {
    super({ ...options, message: options.message ?? `The code sandbox stopped: ${options.reason}` });
  }
}
