import { registerErrorClass } from './moat-error';
import { describeCall, ToolError, type ToolErrorOptions } from './tool-error';

/** The tool's result could not be converted to text or sent back (a function in it, a cycle, …). */
export class ToolOutputError extends ToolError {
  static {
    registerErrorClass(ToolOutputError, 'ToolOutputError');
  }

  constructor(options: ToolErrorOptions & { reason: string }) {
    super({
      ...options,
      message: options.message ?? `Tool ${describeCall(options)} returned an unusable result: ${options.reason}`,
    });
  }
}
