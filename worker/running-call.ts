import { MoatError } from '../src/errors/moat-error';
import { ToolError } from '../src/errors/tool-error';
import { ToolExecutionError } from '../src/errors/tool-execution-error';
import type { CallRequest } from '../src/pool/protocol';

/**
 * A call being run. Its `AbortController` is made only when the tool looks at its signal (most
 * never do); an abort that comes first is kept and applied then.
 */
export class RunningCall {
  readonly call: CallRequest;
  #controller: AbortController | undefined;
  #aborted = false;
  #reason: unknown;

  constructor(call: CallRequest) {
    this.call = call;
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#aborted) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  abort(reason: unknown): void {
    if (this.#controller) this.#controller.abort(reason);
    else if (!this.#aborted) {
      this.#aborted = true;
      this.#reason = reason;
    }
  }
}

/** Our own errors pass with the call's name and id filled in; anything else is a ToolExecutionError. */
export function asToolError(error: unknown, call: CallRequest): Error {
  if (ToolError.isInstance(error)) {
    const e = error as ToolError & { toolName?: string; toolCallId?: string };
    if (e.toolName === undefined) Object.assign(e, { toolName: call.name });
    if (e.toolCallId === undefined) Object.assign(e, { toolCallId: call.toolCallId });
    return e;
  }
  if (MoatError.isInstance(error)) return error as Error;
  return new ToolExecutionError({ toolName: call.name, toolCallId: call.toolCallId, cause: error });
}
