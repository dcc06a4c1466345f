/**
 * Which of the calls posted to one worker it has started: what decides, when the worker is
 * stopped, that a call runs elsewhere (never started) or counts as having run.
 *
 * The worker starts calls in the order it receives them, so a count is enough: the calls are
 * numbered as they are posted, and those numbered at or beyond the count never started. With
 * shared memory the count is a word the worker bumps as it starts each call, and the page reads
 * it exactly, at any time. Without, the worker reports its count whenever it posts, and says the
 * exact count when asked to stop (or before it dies).
 */
import { STOP_BIT } from './protocol';

export class StartedCalls {
  /** The shared count, or undefined without shared memory. */
  readonly #word: Int32Array | undefined;
  /** The number the next call posted gets. */
  #next = 0;
  /** Without shared memory: the highest count the worker has reported. */
  #reported = 0;
  /** Without shared memory: the exact count, once the worker said it stopped (or died). */
  #final: number | undefined;
  #onFinal: ((count: number) => void) | undefined;

  constructor(memory: SharedArrayBuffer | undefined) {
    this.#word = memory ? new Int32Array(memory) : undefined;
  }

  /** True when the count is shared memory (exact at any time). */
  get shared(): boolean {
    return this.#word !== undefined;
  }

  /** The number of a call being posted now (0, 1, …). */
  number(): number {
    return this.#next++;
  }

  /** Without shared memory: the worker said it has started `count` calls. */
  reported(count: number): void {
    if (count > this.#reported) this.#reported = count;
  }

  /** Without shared memory: the worker's exact count, from its last word (`stopped` or `fatal`). */
  final(count: number): void {
    if (typeof count !== 'number') return;
    this.#final = count;
    this.#onFinal?.(count);
  }

  /** The exact count when already known; else `then` is called with it when it arrives. */
  whenFinal(then: (count: number) => void): number | undefined {
    if (this.#final !== undefined) return this.#final;
    this.#onFinal = then;
    return undefined;
  }

  /**
   * From here on the worker starts nothing more; returns how many it started. With shared
   * memory the stop bit and the count share one atomic word, so a call is either counted here
   * or never run. Without, the worker's exact count if it gave one; else the call after the
   * last one it reported is taken as started (it may be the one it is stuck in): none runs twice.
   */
  close(): number {
    if (this.#word) return Atomics.or(this.#word, 0, STOP_BIT) & ~STOP_BIT;
    return this.#final ?? this.#reported + 1;
  }
}
