import type { Culprit } from '../errors/worker-crashed-error';
import { DeadlineHeap } from './deadline-heap';

/** Below this many deadlines held, those of settled calls are not swept out. */
const SWEEP_MIN = 1024;

/** What the clock tells its pool; the pool decides what it means (a worker stopped, say). */
export interface ClockHandlers<Worker> {
  /**
   * The deadline call `id` runs under now. A deadline the clock holds that is no longer this (the
   * call settled, or waits to be sent again) is forgotten.
   */
  deadlineOf(id: number): number | undefined;
  /** Call `id` ran out of time. */
  timedOut(id: number): void;
  /** A cancelled call kept running past the grace period: its worker must go. */
  ignoredAbort(worker: Worker, culprit: Culprit): void;
}

/**
 * When calls run out of time, on one timer: each call's deadline (counted from when it was
 * posted to its worker), and the grace a cancelled call gets to stop before its worker is stopped
 * for it. The pool says what is due and what happens then.
 */
export class CallClock<Worker> {
  /**
   * Call ids by deadline. Only numbers: a call that settles is not kept alive by its deadline
   * (its arguments, state, callbacks), and deadlines of settled calls are swept out once they
   * are half of what the heap holds.
   */
  readonly #deadlines = new DeadlineHeap<number>();
  #sweepAt = SWEEP_MIN;
  /** Cancelled calls a worker may still be running, by pool call id. */
  readonly #abandoned = new Map<number, { worker: Worker; deadline: number; culprit: Culprit }>();
  readonly #graceMs: number;
  readonly #on: ClockHandlers<Worker>;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  constructor(graceMs: number, on: ClockHandlers<Worker>) {
    this.#graceMs = graceMs;
    this.#on = on;
  }

  /**
   * Call `id` must be over by `deadline` (a `performance.now()` time, which `deadlineOf` gives
   * back while it holds).
   */
  due(id: number, deadline: number): void {
    const heap = this.#deadlines;
    if (heap.size >= this.#sweepAt) {
      heap.keep((entry, at) => this.#on.deadlineOf(entry) === at);
      this.#sweepAt = Math.max(SWEEP_MIN, 2 * heap.size);
    }
    heap.push(deadline, id);
    this.#schedule(deadline);
  }

  /** How many deadlines the clock holds, some perhaps of calls settled since. */
  get held(): number {
    return this.#deadlines.size;
  }

  /** A cancelled call still running on `worker`: it has the grace period to stop. */
  abandon(id: number, worker: Worker, culprit: Culprit): void {
    const deadline = performance.now() + this.#graceMs;
    this.#abandoned.set(id, { worker, deadline, culprit });
    this.#schedule(deadline);
  }

  /** The worker answered a cancelled call: it stopped in time. */
  answered(id: number): void {
    this.#abandoned.delete(id);
  }

  /** The worker is being stopped anyway: its cancelled calls need no watching. */
  forget(worker: Worker): void {
    for (const [id, entry] of this.#abandoned) if (entry.worker === worker) this.#abandoned.delete(id);
  }

  stop(): void {
    clearTimeout(this.#timer);
    this.#timerAt = Number.POSITIVE_INFINITY;
  }

  #schedule(at: number): void {
    if (at >= this.#timerAt) return;
    clearTimeout(this.#timer);
    this.#timerAt = at;
    this.#timer = setTimeout(() => this.#tick(), Math.max(0, at - performance.now()));
  }

  #tick(): void {
    this.#timerAt = Number.POSITIVE_INFINITY;
    const now = performance.now();
    for (const [id, deadline] of this.#deadlines.expired(now))
      if (this.#on.deadlineOf(id) === deadline) this.#on.timedOut(id);
    let nextGrace = Number.POSITIVE_INFINITY;
    for (const [id, entry] of this.#abandoned) {
      if (entry.deadline <= now) {
        this.#abandoned.delete(id);
        this.#on.ignoredAbort(entry.worker, entry.culprit);
      } else if (entry.deadline < nextGrace) nextGrace = entry.deadline;
    }
    const next = Math.min(this.#deadlines.peek() ?? Number.POSITIVE_INFINITY, nextGrace);
    if (next < Number.POSITIVE_INFINITY) this.#schedule(next);
  }
}
