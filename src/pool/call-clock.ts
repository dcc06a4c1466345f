/**
 * Time in the pool: each call's deadline and the grace a cancelled call gets (`CallClock`), which
 * limit wins (`resolveTimeLimit`), and the two waits a worker handle needs beyond `setTimeout`
 * (an idle period, and the messages already queued).
 */
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
export class CallClock<Call, Worker> {
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

  /**
   * `call` must be over within `ms` (`Infinity`: no limit); `timedOut` is told when it is not.
   * Returns the timer, for the call to clear (see `PoolCall.posted`).
   */
  due(call: Call, ms: number): ReturnType<typeof setTimeout> | undefined {
    return Number.isFinite(ms) ? setTimeout(this.#timedOut, Math.min(ms, MAX_TIMER_MS), call) : undefined;
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

/** The time limits that may apply to one call, from the most specific to the least, in ms. */
export interface TimeLimits {
  /** Given for this one call (`pool.call(call, { timeoutMs })`, or an interceptor's `request.override`). */
  call?: number | undefined;
  /** The tool's own (`defineTool({ timeoutMs })`): what the worker says, so never above `ceiling`. */
  tool?: number | undefined;
  /** The caller's default for tools that declare none (`new ToolInvoker({ timeoutMs })`). */
  invoker?: number | undefined;
  /** The pool's (`createWorkerPool({ timeoutMs })`, 30 s by default). */
  pool: number;
  /**
   * The longest limit a tool may give itself (`createWorkerPool({ maxToolTimeoutMs })`); the
   * pool's own limit when not given.
   */
  ceiling?: number | undefined;
}

/**
 * The limit a call runs under: the most specific one given wins (the call's, then the tool's
 * own, then the invoker's, then the pool's). `Infinity` is a limit too: none at all.
 *
 * The page's levels (the call's, the invoker's, the pool's) are taken as they are. The tool's is
 * what its worker says, and a worker is untrusted: it may shorten its limit, never lengthen it
 * past the ceiling, the pool's limit unless the page allows more.
 *
 * @example
 * resolveTimeLimit({ tool: 3_000, invoker: 60_000, pool: 30_000 }); // 3_000: the tool knows best
 * resolveTimeLimit({ tool: Infinity, pool: 30_000 }); // 30_000: the pool's is a ceiling
 * resolveTimeLimit({ call: 500, tool: 3_000, pool: 30_000 }); // 500
 */
export function resolveTimeLimit(limits: TimeLimits): number {
  if (limits.call !== undefined) return limits.call;
  if (limits.tool !== undefined) return Math.min(limits.tool, limits.ceiling ?? limits.pool);
  return limits.invoker ?? limits.pool;
}

/**
 * Waiting on a worker that may be busy, slow or stuck: the two timers a worker handle needs
 * beyond plain `setTimeout`.
 */

/**
 * Call `late` once a whole period of `ms` has begun and ended with `busy()` false. A worker busy
 * with calls answers when they let it (their own time limits bound that), so it is taken for
 * stuck only after a period that starts and ends with it idle. Returns what cancels the wait.
 */
export function idlePeriod(ms: number, busy: () => boolean, late: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let wasBusy = false;
  const arm = () => {
    timer = setTimeout(() => {
      const now = busy();
      if (now || wasBusy) {
        wasBusy = now;
        arm();
        return;
      }
      late();
    }, ms);
  };
  arm();
  return () => clearTimeout(timer);
}

/**
 * Call `then` once every message already waiting for this thread has been handled. A timer may
 * run before messages that wait in the queue (a busy page); a message of the thread's own,
 * posted now, is read after everything posted to it before.
 */
export function afterQueuedMessages(then: () => void): void {
  const channel = new MessageChannel();
  channel.port2.onmessage = () => {
    channel.port2.close();
    then();
  };
  channel.port1.postMessage(null);
}
