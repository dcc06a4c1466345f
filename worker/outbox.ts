import { serializeError } from '../src/errors/serialize-error';
import { ToolOutputError } from '../src/errors/tool-output-error';
import type { CallRequest, OutEntry, WorkerToPage } from '../src/pool/protocol';

/**
 * What a worker has for the page and has not posted yet: deltas, results and errors, and how many
 * calls have started. Posting is the server's to time; this keeps the entries, who they answer,
 * and what to do when one of them cannot be cloned.
 */
export class Outbox {
  readonly #post: (message: WorkerToPage) => void;
  #entries: OutEntry[] = [];
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
    post: (message: WorkerToPage) => void,
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
  push(entry: OutEntry, call: CallRequest): void {
    if (!Object.hasOwn(entry, 'delta')) this.#answered.push(call);
    this.#entries.push(entry);
  }

  /**
   * Post everything as one message. An entry that cannot be cloned (an artifact, a delta) fails
   * its call with a `ToolOutputError`; the rest still go.
   */
  flush(): void {
    if (!this.pending) return;
    const out = this.#entries;
    const answered = this.#answered;
    this.#entries = [];
    this.#answered = [];
    const started = this.started;
    this.#reported = started;
    try {
      this.#post({ t: 'out', started, out });
      return;
    } catch {
      // one of the entries cannot be cloned: below
    }
    for (let i = 0; i < out.length; i++) {
      const entry = out[i] as OutEntry;
      try {
        this.#post({ t: 'out', started, out: [entry] });
      } catch (error) {
        const what = Object.hasOwn(entry, 'delta') ? 'a streamed delta' : 'its artifact';
        const call = this.#running(entry.id) ?? answered.find((c) => c.id === entry.id);
        const failure = new ToolOutputError({
          ...(call ? { toolName: call.name, toolCallId: call.toolCallId } : {}),
          reason: `${what} cannot be sent to the page (${error instanceof Error ? error.message : String(error)})`,
        });
        this.#failed(entry.id, failure);
        this.#post({ t: 'out', started, out: [{ id: entry.id, error: serializeError(failure) }] });
      }
    }
  }
}
