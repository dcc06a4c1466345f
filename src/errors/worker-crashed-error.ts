import { registerErrorClass } from './moat-error';
import { describeCall, ToolError, type ToolErrorOptions } from './tool-error';

/** The call whose fault (a timeout, an ignored abort, a crash) made the pool stop a worker. */
export interface Culprit {
  toolCallId: string;
  toolName: string;
}

/**
 * The worker running the call died (a crash, `self.close()`, an uncaught error) or was stopped.
 * When another call's fault stopped it, `culprit` names that call; a tool defined `idempotent`
 * is re-run once instead of failing with this.
 */
export class WorkerCrashedError extends ToolError {
  static {
    registerErrorClass(WorkerCrashedError, 'WorkerCrashedError');
  }
  readonly culprit: Culprit | undefined;

  constructor(options: ToolErrorOptions & { reason: string; culprit?: Culprit | undefined }) {
    const { culprit } = options;
    const blame =
      culprit && culprit.toolCallId !== options.toolCallId
        ? ` (stopped for call ${culprit.toolCallId} ('${culprit.toolName}'); this call had started and its tool is not idempotent, so it was not run again)`
        : '';
    super({
      ...options,
      message: options.message ?? `The worker running ${describeCall(options)} stopped: ${options.reason}${blame}`,
    });
    this.culprit = culprit;
  }
}
