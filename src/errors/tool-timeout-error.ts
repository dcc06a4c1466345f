import { registerErrorClass } from './moat-error';
import { describeCall, ToolError, type ToolErrorOptions } from './tool-error';

export interface ToolTimeoutErrorOptions extends ToolErrorOptions {
  timeoutMs: number;
}

/** The call ran past its time limit; its worker was stopped and replaced. */
export class ToolTimeoutError extends ToolError {
  static {
    registerErrorClass(ToolTimeoutError, 'ToolTimeoutError');
  }
  readonly timeoutMs: number;

  constructor(options: ToolTimeoutErrorOptions) {
    super({
      ...options,
      message: options.message ?? `Tool ${describeCall(options)} timed out after ${options.timeoutMs} ms`,
    });
    this.timeoutMs = options.timeoutMs;
  }
}
