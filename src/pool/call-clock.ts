import type { Culprit } from '../errors/worker-crashed-error';
import { DeadlineHeap } from './deadline-heap';

/** What the clock tells its pool; the pool decides what it means (a worker stopped, say). */
export interface ClockHandlers<Call, Worker> {
  /** `call`'s attempt `attempt` reached its deadline (it may have settled since: check). */
  timedOut(call: Call, attempt: number): void;
  /** A cancelled call kept running past the grace period: its worker must go. */
  ignoredAbort(worker: Worker, culprit: Culprit): void;
}

/**
 * When calls run out of time, on one timer: each call's deadline (counted from when it was
 * posted to its worker), and the grace a cancelled call gets to stop before its worker is stopped
 * for it. The pool says what is due and what happens then.
 */
export class CallClock<Call, Worker> {
  readonly #deadlines = new DeadlineHeap<{ call: Call; attempt: number }>();
  /** Cancelled calls a worker may still be running, by pool call id. */
  readonly #abandoned = new Map<number, { worker: Worker; deadline: number; culprit: Culprit }>();
  readonly #graceMs: number;
  readonly #on: ClockHandlers<Call, Worker>;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #timerAt = Number.POSITIVE_INFINITY;

  constructor(graceMs: number, on: ClockHandlers<Call, Worker>) {
    this.#graceMs = graceMs;
    this.#on = on;
  }

  /** `call`'s attempt `attempt` must be over by `deadline` (a `performance.now()` time). */
  due(call: Call, attempt: number, deadline: number): void {
    this.#deadlines.push(deadline, { call, attempt });
    this.#schedule(deadline);
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
    for (const { call, attempt } of this.#deadlines.expired(now)) this.#on.timedOut(call, attempt);
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
