import type { TurnBudget } from '../pool/output-budget';
import type { ResultFormat } from '../pool/protocol';
import type { CallOptions } from '../pool/worker-pool';
import type { RunOptions, ToolEvent } from './types';

/**
 * The pool's options for a call. A turn's calls share one set (an interceptor may give a call its
 * own state or context): the last set made is reused while its inputs are the same, so a turn of
 * 100 calls makes one object, not 100 (the pool only reads it).
 */
export class PoolCallOptions {
  readonly #resultFormat: ResultFormat | undefined;
  readonly #timeoutMs: number | undefined;
  #last:
    | { state: unknown; context: unknown; options: RunOptions; emit: (event: ToolEvent) => void; made: CallOptions }
    | undefined;

  constructor(resultFormat: ResultFormat | undefined, timeoutMs: number | undefined) {
    this.#resultFormat = resultFormat;
    this.#timeoutMs = timeoutMs;
  }

  for(
    state: unknown,
    context: unknown,
    options: RunOptions,
    emit: (event: ToolEvent) => void,
    turn: TurnBudget,
  ): CallOptions {
    const last = this.#last;
    if (
      last &&
      last.state === state &&
      last.context === context &&
      last.options === options &&
      last.emit === emit &&
      last.made.turn === turn
    )
      return last.made;
    const made: CallOptions = {
      onDelta: (delta, id) => emit({ type: 'tool-output-delta', toolCallId: id, delta }),
      onRerun: ({ toolCallId, reason }) => emit({ type: 'tool-rerun', toolCallId, reason }),
      turn,
    };
    if (options.signal) made.signal = options.signal;
    if (state !== undefined) made.state = state;
    if (context !== undefined) made.context = context;
    if (this.#resultFormat) made.resultFormat = this.#resultFormat;
    if (this.#timeoutMs !== undefined) made.defaultTimeoutMs = this.#timeoutMs;
    this.#last = { state, context, options, emit, made };
    return made;
  }
}
