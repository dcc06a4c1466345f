import type { ToolCall } from '../messages/types';
import { PoolCall } from './pool-call';
import type { CallOptions } from './pool-options';
import type { ToolResult } from './tool-result';

/** The calls watching one signal, and the one listener they share on it. */
interface Watch {
  calls: Set<PoolCall>;
  listener: () => void;
}

/**
 * Every call the pool has taken and not settled, from `call()` to its one settlement: its id,
 * the watch on its abort signal, and settling it exactly once (the caller's promise resolved or
 * rejected, the watch released, the call forgotten). What the pool does with a call in between
 * (queues, workers, deadlines) is the pool's.
 */
export class CallLedger {
  readonly #calls = new Map<number, PoolCall>();
  readonly #onAbort: (call: PoolCall, reason: unknown) => void;
  /**
   * The calls under each signal, behind one listener per signal: a turn's calls share its
   * signal, and Chromium looks through a target's listeners on every add and remove, so a
   * listener per call made a turn of 10,000 calls one task of 300 ms and more.
   */
  readonly #watches = new Map<AbortSignal, Watch>();
  #nextId = 1;

  /** `onAbort` is told when a call's signal aborts before it settled. */
  constructor(onAbort: (call: PoolCall, reason: unknown) => void) {
    this.#onAbort = onAbort;
  }

  /** Take a call (already checked): it gets the next id and is watched for its signal's abort. */
  open(
    toolCall: ToolCall,
    options: CallOptions,
    timeoutMs: number,
    resolve: (result: ToolResult) => void,
    reject: (error: unknown) => void,
  ): PoolCall {
    const call = new PoolCall(this.#nextId++, toolCall, options, timeoutMs, resolve, reject);
    this.#calls.set(call.id, call);
    if (options.signal) this.#watch(options.signal, call);
    return call;
  }

  /** The unsettled call with this id. */
  get(id: number): PoolCall | undefined {
    return this.#calls.get(id);
  }

  /** How many calls are unsettled. */
  get size(): number {
    return this.#calls.size;
  }

  /** The unsettled calls, in the order they were taken (a copy: settling them is safe). */
  all(): PoolCall[] {
    return [...this.#calls.values()];
  }

  /**
   * Settle the call: rejected with `error` (or with `rawReason`, an abort signal's reason exactly
   * as given, when there is one), or else resolved with `result` (see `PoolCall.settle`). A call
   * settles once: nothing happens to one settled before.
   */
  settle(call: PoolCall, error: Error | undefined, result?: ToolResult, rawReason?: unknown): void {
    if (!call.settle(error, result, rawReason)) return;
    this.#calls.delete(call.id);
    if (call.options.signal) this.#unwatch(call.options.signal, call);
  }

  #watch(signal: AbortSignal, call: PoolCall): void {
    const watch = this.#watches.get(signal);
    if (watch) {
      watch.calls.add(call);
      return;
    }
    const calls = new Set([call]);
    const listener = () => {
      this.#watches.delete(signal);
      // In the order taken; a sibling's abort handling may have settled a call before its turn.
      for (const c of [...calls]) if (!c.settled) this.#onAbort(c, signal.reason);
    };
    this.#watches.set(signal, { calls, listener });
    signal.addEventListener('abort', listener, { once: true });
  }

  /** A settled call stops watching; the signal's listener goes with its last call. */
  #unwatch(signal: AbortSignal, call: PoolCall): void {
    const watch = this.#watches.get(signal);
    if (!watch?.calls.delete(call) || watch.calls.size > 0) return;
    this.#watches.delete(signal);
    signal.removeEventListener('abort', watch.listener);
  }
}
