import { registerErrorClass } from './moat-error';
import { describeCall, ToolError, type ToolErrorOptions } from './tool-error';

/** The worker running the call died (a crash, `self.close()`, an uncaught error) or was stopped. */
export class WorkerCrashedError extends ToolError {
  static {
    registerErrorClass(WorkerCrashedError, 'WorkerCrashedError');
  }

  constructor(options: ToolErrorOptions & { reason: string }) {
    super({
      ...options,
      message: options.message ?? `The worker running ${describeCall(options)} stopped: ${options.reason}`,
    });
  }
}
