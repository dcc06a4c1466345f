import type { Culprit } from '../errors/worker-crashed-error';

/** The longest delay `setTimeout` keeps (about 24.8 days); a longer time limit waits this long. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** Calls cancelled on one worker in one tick: one grace period for them all. */
interface Grace<Worker> {
  worker: Worker;
  /** The calls not answered yet, in the order cancelled. */
  calls: Map<number, Culprit>;
  timer: ReturnType<typeof setTimeout>;
}

/**
 * When calls run out of time, one timer each: a call's deadline (counted from when it was posted
 * to its worker; the timer is the call's own, cleared when it settles or goes back to the queue),
 * and the grace cancelled calls get to stop before their worker is stopped for them (one timer
 * for the calls a worker is told to stop in the same tick: a turn of 10,000 calls stopped at once
 * set 10,000 timers in one task).
 */
export class CallClock<Call extends { timer: ReturnType<typeof setTimeout> | undefined }, Worker> {
  /** Cancelled calls a worker may still be running, by pool call id. */
  readonly #abandoned = new Map<number, Grace<Worker>>();
  /** The grace each worker's cancels of this tick share. */
  readonly #open = new Map<Worker, Grace<Worker>>();
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

  /**
   * A cancelled call still running on `worker`: it has the grace period to stop. Past it, the
   * first of its tick's cancelled calls still running is the culprit.
   */
  abandon(id: number, worker: Worker, culprit: Culprit): void {
    let grace = this.#open.get(worker);
    if (!grace) {
      const opened: Grace<Worker> = {
        worker,
        calls: new Map(),
        timer: setTimeout(() => this.#expired(opened), this.#graceMs),
      };
      grace = opened;
      this.#open.set(worker, opened);
      queueMicrotask(() => this.#open.delete(worker));
    }
    grace.calls.set(id, culprit);
    this.#abandoned.set(id, grace);
  }

  /** The worker answered a cancelled call: it stopped in time. */
  answered(id: number): void {
    const grace = this.#abandoned.get(id);
    if (!grace) return;
    this.#abandoned.delete(id);
    grace.calls.delete(id);
    if (grace.calls.size === 0) clearTimeout(grace.timer);
  }

  /** The worker (or, without one, every worker) is being stopped anyway: its cancelled calls need no watching. */
  forget(worker?: Worker): void {
    for (const [id, grace] of this.#abandoned) if (worker === undefined || grace.worker === worker) this.answered(id);
  }

  #expired(grace: Grace<Worker>): void {
    for (const id of grace.calls.keys()) this.#abandoned.delete(id);
    const culprit = grace.calls.values().next().value;
    grace.calls.clear();
    if (culprit) this.#ignoredAbort(grace.worker, culprit);
  }
}
