import { registerErrorClass } from './moat-error';
import { describeCall, ToolError, type ToolErrorOptions } from './tool-error';

/** The tool threw (or its promise rejected, or its stream failed). `cause` is what it threw. */
export class ToolExecutionError extends ToolError {
  static {
    registerErrorClass(ToolExecutionError, 'ToolExecutionError');
  }

  constructor(options: ToolErrorOptions) {
    const reason = options.cause instanceof Error ? options.cause.message : String(options.cause ?? 'unknown error');
    super({ ...options, message: options.message ?? `Tool ${describeCall(options)} failed: ${reason}` });
  }
}
