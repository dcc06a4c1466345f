import { serializeError } from '../src/errors/serialize-error';
import { ToolOutputError } from '../src/errors/tool-output-error';
import { packOut } from '../src/pool/packed-out';
import { type CallRequest, OUT_DELTA, OUT_ERROR, OUT_STARTED, OUT_STRIDE, type OutBatch } from '../src/pool/protocol';
import { clearStash, type ResultStash, stashResult } from '../src/pool/result-stash';

/**
 * What a worker has for the page and has not posted yet: deltas, results and errors (an
 * `OutBatch`), and, for a page without shared memory, how many calls have started. Posting is
 * the server's to time; this keeps the entries, who they answer, and what to do when one of
 * them cannot be cloned.
 */
export class Outbox {
  readonly #post: (batch: OutBatch | string) => void;
  #entries: OutBatch = [];
  /** The calls whose answer waits here (no longer running): who a failed post was for. */
  #answered: CallRequest[] = [];
  /** Calls started, and how many of them the page has been told of (no shared memory only). */
  started = 0;
  #reported = 0;
  readonly #reportStarts: boolean;
  /** With shared memory: where results wait safe until posted. */
  readonly #stash: ResultStash | undefined;
  /** Entries that would be lost if the worker were stopped now (not in the stash). */
  #unsafe = 0;
  /** Where in the entries the results wait that were kept for later (`push` without `stashNow`). */
  readonly #later: number[] = [];
  readonly #running: (id: number) => CallRequest | undefined;
  readonly #failed: (id: number, error: Error) => void;

  /**
   * `running` finds a call still running; `failed` is told of a call whose entry could not be
   * posted (it aborts the call if it still runs).
   */
  constructor(
    post: (batch: OutBatch | string) => void,
    reportStarts: boolean,
    running: (id: number) => CallRequest | undefined,
    failed: (id: number, error: Error) => void,
    stash?: ResultStash,
  ) {
    this.#post = post;
    this.#reportStarts = reportStarts;
    this.#stash = stash;
    this.#running = running;
    this.#failed = failed;
  }

  /** Something the page has not been told: entries, or (without shared memory) started calls. */
  get pending(): boolean {
    return this.#entries.length > 0 || (this.#reportStarts && this.started > this.#reported);
  }

  /**
   * Something that would be lost with the worker if a call started now blocked it until it is
   * stopped: entries not in the stash (deltas, results that are not JSON, results not put there
   * yet), or started calls the page has not been told of. `secure` them, or post, before
   * starting another call while this holds.
   */
  get atRisk(): boolean {
    return this.#unsafe > 0 || (this.#reportStarts && this.started > this.#reported);
  }

  /**
   * Keep an entry for the next post. With `stashNow`, a result goes into the stash at once, and
   * true says it is safe meanwhile. Without (the calls of a batch, whose results are posted when
   * the batch ends unless another call starts first), `secure` does it when it must.
   */
  push(kind: number, call: CallRequest, payload: unknown, stashNow = true): boolean {
    if (kind !== OUT_DELTA) this.#answered.push(call);
    const at = this.#entries.length;
    this.#entries.push(kind, call.id, payload);
    const safe = stashNow && this.#stashAt(at);
    if (!safe) {
      this.#unsafe++;
      if (!stashNow && this.#stash && kind !== OUT_DELTA) this.#later.push(at);
    }
    return safe;
  }

  /**
   * Put the results kept for later into the stash: true when nothing is at risk any more (then
   * another call may start without a post first).
   */
  secure(): boolean {
    if (!this.#stash || (this.#reportStarts && this.started > this.#reported)) return false;
    for (const at of this.#later) {
      if (!this.#stashAt(at)) return false;
      this.#unsafe--;
    }
    this.#later.length = 0;
    return this.#unsafe === 0;
  }

  #stashAt(at: number): boolean {
    if (!this.#stash) return false;
    const e = this.#entries;
    try {
      return stashResult(this.#stash, e[at] as number, e[at + 1] as number, e[at + 2]);
    } catch {
      return false; // not kept there (a payload JSON cannot write): posted before anything else runs
    }
  }

  /**
   * Post everything as one message. An entry that cannot be cloned (an artifact, a delta) fails
   * its call with a `ToolOutputError`; the rest still go.
   */
  flush(): void {
    if (this.#reportStarts && this.started > this.#reported) {
      this.#entries.push(OUT_STARTED, this.started, 0);
      this.#reported = this.started;
    }
    const batch = this.#entries;
    if (batch.length === 0) return;
    try {
      // Cloned as it is posted: the arrays can be emptied and used again (one flush per call).
      // Bare text and JSON results (the usual batch) go as one string, which costs less to send.
      this.#post(packOut(batch) ?? batch);
      batch.length = 0;
      this.#answered.length = 0;
      this.#posted();
      return;
    } catch {
      // one of the entries cannot be cloned: below
    }
    const answered = this.#answered;
    this.#entries = [];
    this.#answered = [];
    this.#posted();
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

  /** Everything is on its way to the page: the stash can start over. */
  #posted(): void {
    this.#unsafe = 0;
    this.#later.length = 0;
    if (this.#stash) clearStash(this.#stash);
  }
}
