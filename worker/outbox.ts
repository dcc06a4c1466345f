import { serializeError } from '../src/errors/serialize-error';
import { ToolOutputError } from '../src/errors/tool-output-error';
import { type CallRequest, OUT_DELTA, OUT_ERROR, OUT_STARTED, OUT_STRIDE, type OutBatch } from '../src/pool/protocol';

/**
 * What a worker has for the page and has not posted yet: deltas, results and errors (an
 * `OutBatch`), and how many calls have started. Posting is
 * the server's to time; this keeps the entries, who they answer, and what to do when one of
 * them cannot be cloned.
 */
export class Outbox {
  readonly #post: (batch: OutBatch) => void;
  #entries: OutBatch = [];
  /** The calls whose answer waits here (no longer running): who a failed post was for. */
  #answered: CallRequest[] = [];
  /** Calls started, and how many of them the page has been told of. */
  started = 0;
  #reported = 0;
  readonly #running: (id: number) => CallRequest | undefined;
  readonly #failed: (id: number, error: Error) => void;

  /**
   * `running` finds a call still running; `failed` is told of a call whose entry could not be
   * posted (it aborts the call if it still runs).
   */
  constructor(
    post: (batch: OutBatch) => void,
    running: (id: number) => CallRequest | undefined,
    failed: (id: number, error: Error) => void,
  ) {
    this.#post = post;
    this.#running = running;
    this.#failed = failed;
  }

  /**
   * Something the page has not been told: entries, or started calls. Lost with the worker if a
   * call started now blocked it until it is stopped: posted before another call starts.
   */
  get pending(): boolean {
    return this.#entries.length > 0 || this.started > this.#reported;
  }

  /** Keep an entry for the next post. */
  push(kind: number, call: CallRequest, payload: unknown): void {
    if (kind !== OUT_DELTA) this.#answered.push(call);
    this.#entries.push(kind, call.id, payload);
  }

  /**
   * Post everything as one message. An entry that cannot be cloned (an artifact, a delta) fails
   * its call with a `ToolOutputError`; the rest still go.
   */
  flush(): void {
    if (this.started > this.#reported) {
      this.#entries.push(OUT_STARTED, this.started, 0);
      this.#reported = this.started;
    }
    const batch = this.#entries;
    if (batch.length === 0) return;
    try {
      // Cloned as it is posted: the arrays can be emptied and used again (one flush per call).
      this.#post(batch);
      batch.length = 0;
      this.#answered.length = 0;
      return;
    } catch {
      // one of the entries cannot be cloned: below
    }
    const answered = this.#answered;
    this.#entries = [];
    this.#answered = [];
    for (let i = 0; i + OUT_STRIDE <= batch.length; i += OUT_STRIDE) {
      const [kind, id] = [batch[i] as number, batch[i + 1] as number];
      try {
        this.#post([kind, id, batch[i + 2]]);
      } catch (error) {
        const what = kind === OUT_DELTA ? 'a streamed delta' : 'its artifact';
        const call = this.#running(id) ?? answered.find((c) => c.id === id);
        const failure = new ToolOutputError({
          ...(call ? { toolName: call.name, toolCallId: call.toolCallId } : {}),
          reason: `${what} cannot be sent to the page (${error instanceof Error ? error.message : String(error)})`,
        });
        this.#failed(id, failure);
        this.#post([OUT_ERROR, id, serializeError(failure)]);
      }
    }
  }
}
