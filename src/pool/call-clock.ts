import type { Culprit } from '../errors/worker-crashed-error';

/** The longest delay `setTimeout` keeps (about 24.8 days); a longer time limit waits this long. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/**
 * When calls run out of time, one timer each: a call's deadline (counted from when it was posted
 * to its worker; the timer is the call's own, cleared when it settles or goes back to the queue),
 * and the grace a cancelled call gets to stop before its worker is stopped for it.
 */
export class CallClock<Call extends { timer: ReturnType<typeof setTimeout> | undefined }, Worker> {
  /** Cancelled calls a worker may still be running, by pool call id. */
  readonly #abandoned = new Map<number, { worker: Worker; timer: ReturnType<typeof setTimeout> }>();
  readonly #graceMs: number;
  readonly #timedOut: (call: Call) => void;
  readonly #ignoredAbort: (worker: Worker, culprit: Culprit) => void;

  /** `ignoredAbort` is told when a cancelled call kept running past the grace: its worker must go. */
  constructor(
    graceMs: number,
    timedOut: (call: Call) => void,
    ignoredAbort: (worker: Worker, culprit: Culprit) => void,
  ) {
    this.#graceMs = graceMs;
    this.#timedOut = timedOut;
    this.#ignoredAbort = ignoredAbort;
  }

  /** `call` must be over within `ms` (`Infinity`: no limit); `timedOut` is told when it is not. */
  due(call: Call, ms: number): void {
    if (Number.isFinite(ms)) call.timer = setTimeout(this.#timedOut, Math.min(ms, MAX_TIMER_MS), call);
  }

  /** A cancelled call still running on `worker`: it has the grace period to stop. */
  abandon(id: number, worker: Worker, culprit: Culprit): void {
    const timer = setTimeout(() => {
      this.#abandoned.delete(id);
      this.#ignoredAbort(worker, culprit);
    }, this.#graceMs);
    this.#abandoned.set(id, { worker, timer });
  }

  /** The worker answered a cancelled call: it stopped in time. */
  answered(id: number): void {
    clearTimeout(this.#abandoned.get(id)?.timer);
    this.#abandoned.delete(id);
  }

  /** The worker (or, without one, every worker) is being stopped anyway: its cancelled calls need no watching. */
  forget(worker?: Worker): void {
    for (const [id, entry] of this.#abandoned) if (worker === undefined || entry.worker === worker) this.answered(id);
  }
}
