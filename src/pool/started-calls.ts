/**
 * Which of the calls posted to one worker it has started: what decides, when the worker is
 * stopped, that a call runs elsewhere (never started) or counts as having run.
 *
 * The worker starts calls in the order it receives them, so a count is enough: the calls are
 * numbered as they are posted, and those numbered at or beyond the count never started. The
 * worker reports its count whenever it posts, and says the exact count when asked to stop (or
 * before it dies).
 */
export class StartedCalls {
  /** The number the next call posted gets. */
  #next = 0;
  /** The highest count the worker has reported. */
  #reported = 0;
  /** The exact count, once the worker said it stopped (or died). */
  #final: number | undefined;
  /** Told when the exact count arrives. */
  onFinal: () => void = () => {};

  /** The number of a call being posted now (0, 1, …). */
  number(): number {
    return this.#next++;
  }

  /**
   * The worker said it has started `count` calls. A worker cannot have started more calls than
   * were posted to it: a count past that (or one that is not a count) is held to what was posted.
   */
  reported(count: number): void {
    const n = this.#count(count);
    if (n > this.#reported) this.#reported = n;
  }

  /**
   * The worker's exact count, from its last word (`stopped` or `fatal`): never below what it
   * reported before (a call it said it began did begin), never past what was posted.
   */
  final(count: number): void {
    this.#final = Math.max(this.#count(count), this.#reported);
    this.onFinal();
  }

  /** A count as the page takes it: a whole number of calls, within those posted (else all of them). */
  #count(count: unknown): number {
    return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0
      ? Math.min(count, this.#next)
      : this.#next;
  }

  /** True when the worker said it started the call numbered `seq` (one not posted yet: false). */
  begun(seq: number): boolean {
    return seq >= 0 && seq < (this.#final ?? this.#reported);
  }

  /** True once the worker gave its exact count. */
  get known(): boolean {
    return this.#final !== undefined;
  }

  /**
   * How many calls the worker started: its exact count if it gave one; else the call after the
   * last one it reported is taken as started (it may be the one it is stuck in): none runs twice.
   */
  close(): number {
    return this.#final ?? this.#reported + 1;
  }
}
