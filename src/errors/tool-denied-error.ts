import { registerErrorClass } from './moat-error';
import { describeCall, ToolError, type ToolErrorOptions } from './tool-error';

/** A call that needed approval was denied (by a person, or by the agent's `approve` policy): it did not run. */
export class ToolDeniedError extends ToolError {
  static {
    registerErrorClass(ToolDeniedError, 'ToolDeniedError');
  }
  readonly reason: string | undefined;

  constructor(options: ToolErrorOptions & { reason?: string | undefined }) {
    super({
      ...options,
      message:
        options.message ?? `${describeCall(options)} was not approved${options.reason ? `: ${options.reason}` : ''}`,
    });
    this.reason = options.reason;
  }
}
