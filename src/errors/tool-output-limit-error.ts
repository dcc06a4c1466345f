import { registerErrorClass } from './moat-error';
import { describeCall, ToolError, type ToolErrorOptions } from './tool-error';

/** Which limit a call's output went past: its result, its progress, or its turn's total. */
export type OutputLimitKind = 'result' | 'progress' | 'turn';

export interface ToolOutputLimitErrorOptions extends ToolErrorOptions {
  limit: OutputLimitKind;
  /** The limit, about the length of the output's JSON text (characters). */
  maxSize: number;
}

const WHAT: Record<OutputLimitKind, string> = {
  result: 'its result is larger than the page accepts from one call',
  progress: 'the progress it streamed is more than the page accepts from one call',
  turn: "the output of this turn's calls together is more than the page accepts from one turn",
};

/**
 * A call sent back more than the page accepts (`createWorkerPool`'s `maxResultSize`,
 * `maxProgressSize`, `maxTurnSize`): it failed, and what it sent was dropped. The model reads
 * the message; the next call runs as usual.
 */
export class ToolOutputLimitError extends ToolError {
  static {
    registerErrorClass(ToolOutputLimitError, 'ToolOutputLimitError');
  }
  readonly limit: OutputLimitKind;
  readonly maxSize: number;

  constructor(options: ToolOutputLimitErrorOptions) {
    super({
      ...options,
      message:
        options.message ??
        `Tool ${describeCall(options)} sent back too much: ${WHAT[options.limit]} (about ${options.maxSize.toLocaleString('en-US')} characters). Return less: a summary, or one page of the data.`,
    });
    this.limit = options.limit;
    this.maxSize = options.maxSize;
  }
}
