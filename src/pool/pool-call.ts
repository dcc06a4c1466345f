/**
 * One call's life in the pool, as one state machine (docs/call-life.md draws it):
 *
 *     queued ──send──▶ sent ──posted──▶ started ──settle──▶ settled
 *        ▲               │                 │
 *        └────requeue────┴─────────────────┘   (its worker stopped: never started, or re-run)
 *
 * A call's state changes here only: the ledger, the dispatch and the pool ask it to move. A move
 * the pool makes in the wrong state is a bug in the pool, not something a worker can cause
 * (what a worker says is checked before the pool acts on it), so it throws rather than being
 * let pass; the one exception is settling, which races by design (a result, an abort and a
 * deadline may all come for the same call in one tick) and happens once: later ones do nothing.
 *
 * Here too: the ledger of the calls taken and not settled (`CallLedger`), and the pure rule of
 * what becomes of a stopped worker's calls (`judgeStoppedCalls`), which the pool applies by
 * these moves.
 */
import type { ToolTimeoutError } from '../errors/tool-timeout-error';
import { type Culprit, WorkerCrashedError } from '../errors/worker-crashed-error';
import { WorkerStartError } from '../errors/worker-start-error';
import type { ToolCall } from '../messages/types';
import type { CallSpend } from './output-budget';
import type { CallOptions, ToolResult } from './pool-options';
import type { WorkerHandle } from './worker-handle';

export type CallState = 'queued' | 'sent' | 'started' | 'settled';

export class PoolCall implements HeldCall {
  readonly id: number;
  readonly toolCall: ToolCall;
  readonly options: CallOptions;
  /** What it has sent back so far, against the page's limits (its turn's too). */
  readonly spend: CallSpend;
  #state: CallState = 'queued';
  #timeoutMs: number;
  /** The worker it was last sent to; undefined while it waits in a queue. */
  #worker: WorkerHandle | undefined;
  /** The time limit of the current dispatch once posted (a re-sent call gets a new one). */
  #timer: ReturnType<typeof setTimeout> | undefined;
  #kills = 0;
  #timedOut: ToolTimeoutError | undefined;
  /** The caller's promise: settled here only, once. */
  readonly #resolve: (result: ToolResult) => void;
  readonly #reject: (error: unknown) => void;

  constructor(
    id: number,
    toolCall: ToolCall,
    options: CallOptions,
    timeoutMs: number,
    resolve: (result: ToolResult) => void,
    reject: (error: unknown) => void,
  ) {
    this.id = id;
    this.toolCall = toolCall;
    this.options = options;
    this.#timeoutMs = timeoutMs;
    this.#resolve = resolve;
    this.#reject = reject;
    this.spend = { progress: 0, turn: options.turn };
  }

  get state(): CallState {
    return this.#state;
  }

  get settled(): boolean {
    return this.#state === 'settled';
  }

  get worker(): WorkerHandle | undefined {
    return this.#worker;
  }

  /** The time limit it runs under: the tool's own is known once it is posted to a worker. */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** Times a worker was stopped while this call ran on it; a second is final. */
  get kills(): number {
    return this.#kills;
  }

  /** Its time ran out while its worker was being stopped (for it or another call). */
  get timedOut(): ToolTimeoutError | undefined {
    return this.#timedOut;
  }

  /** Queued → sent: it is on its way to `worker` (posted at the end of the tick). */
  send(worker: WorkerHandle): void {
    this.#expect('send', 'queued');
    this.#state = 'sent';
    this.#worker = worker;
  }

  /**
   * Sent → started: posted to its worker, its deadline runs from now under `timeoutMs`. `arm`
   * sets the timer (none for an endless limit) that this call clears when it settles or goes
   * back to the queue.
   */
  posted(timeoutMs: number, arm: (call: this, ms: number) => ReturnType<typeof setTimeout> | undefined): void {
    this.#expect('posted', 'sent');
    this.#state = 'started';
    this.#timeoutMs = timeoutMs;
    this.#timer = arm(this, timeoutMs);
  }

  /** Its time ran out while its worker is being stopped: its fate waits for what the worker started. */
  overdue(error: ToolTimeoutError): void {
    this.#expect('overdue', 'sent', 'started');
    this.#timedOut = error;
  }

  /**
   * Sent or started → queued: its worker stopped without it settling (it never started there,
   * or it runs once more: `rerun`, which counts the kill). The dispatch that ended holds no
   * longer: its worker, its deadline and a timeout it had there are forgotten.
   */
  requeue(rerun: boolean): void {
    this.#expect('requeue', 'sent', 'started');
    this.#state = 'queued';
    if (rerun) this.#kills++;
    this.#worker = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#timedOut = undefined;
  }

  /**
   * Settle it: rejected with `error` (or with `rawReason`, an abort signal's reason exactly as
   * given, when there is one), or else resolved with `result`. From any state; false when it had
   * settled already (nothing happens then).
   */
  settle(error: Error | undefined, result?: ToolResult, rawReason?: unknown): boolean {
    if (this.#state === 'settled') return false;
    this.#state = 'settled';
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (error) this.#reject(rawReason !== undefined ? rawReason : error);
    else this.#resolve(result as ToolResult);
    return true;
  }

  #expect(move: string, ...from: CallState[]): void {
    if (!from.includes(this.#state))
      throw new Error(`PoolCall ${this.id}: cannot ${move} a call that is ${this.#state} (a bug in the pool)`);
  }
}

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

// What becomes of the calls a stopped worker held: the rule that a hostile call costs only
// itself, kept apart from the pool that applies it (and testable without a worker).

/** What the rule needs to know of a call. */
export interface HeldCall {
  readonly id: number;
  readonly toolCall: { readonly id: string; readonly name: string };
  /** Times a worker was stopped while this call ran on it; a second is final. */
  readonly kills: number;
  /** Its time ran out while its worker was being stopped for another call. */
  readonly timedOut?: ToolTimeoutError | undefined;
}

export interface StoppedWorker<C extends HeldCall> {
  /** The unsettled calls it had been sent (posted or about to be), in the order sent. */
  sent: readonly C[];
  /** Ids of sent calls it never started: never posted, or posted and not begun (see `StartedCalls`). */
  unstarted: ReadonlySet<number>;
  /** False: it never came up (its script failed), so nothing it was given can run anywhere. */
  connected: boolean;
  /** Tools that say a call may run twice (`defineTool({ idempotent: true })`). */
  idempotent: ReadonlySet<string>;
  /** The call it was stopped for, when there is one. */
  culprit: Culprit | undefined;
  reason: string;
}

export interface Verdict<C extends HeldCall> {
  /** To send again, in their original order: never started, or re-run. */
  retry: C[];
  /** Of `retry`, how many had never started. */
  recovered: number;
  /** Of `retry`, the started calls that run once more (their tool is idempotent). */
  rerun: C[];
  /** Calls that fail, each with its error. */
  failed: [C, Error][];
  /** Tools to quarantine: the suspects of a crash no single call is blamed for. */
  suspects: string[];
}

/**
 * Decide each call's fate:
 * - not posted, or posted but never started: it runs elsewhere (nothing of it ran here), even
 *   when its own time ran out (the worker was held by another call: it is not to blame);
 * - started and out of time: it fails with its `ToolTimeoutError`; when no culprit was named
 *   (its time ran out before the page knew it had started), it is the culprit;
 * - started, on its first kill, its tool idempotent, and not the culprit: it runs once more;
 * - otherwise: `WorkerCrashedError`, naming the culprit (or, if one call alone was running,
 *   that call). A crash nobody is blamed for makes every call it was running a suspect.
 * A worker that never connected fails everything it was sent with `WorkerStartError`.
 *
 * Pure: it changes no call. The pool moves each as told (`PoolCall.requeue` counts a re-run's
 * kill and forgets a never-started call's timeout: its clock starts again elsewhere).
 */
export function judgeStoppedCalls<C extends HeldCall>(worker: StoppedWorker<C>): Verdict<C> {
  const { connected, reason } = worker;
  const verdict: Verdict<C> = { retry: [], recovered: 0, rerun: [], failed: [], suspects: [] };
  const started: C[] = [];
  let overdue: C | undefined;
  for (const call of worker.sent) {
    if (!connected) verdict.failed.push([call, new WorkerStartError({ reason })]);
    else if (worker.unstarted.has(call.id)) {
      verdict.recovered++;
      verdict.retry.push(call);
    } else if (call.timedOut) {
      overdue ??= call;
      verdict.failed.push([call, call.timedOut]);
    } else started.push(call);
  }
  let culprit = worker.culprit;
  if (connected && !culprit && overdue) {
    culprit = { toolCallId: overdue.toolCall.id, toolName: overdue.toolCall.name };
    verdict.suspects.push(overdue.toolCall.name);
  } else if (connected && !culprit) {
    for (const call of started) verdict.suspects.push(call.toolCall.name);
    const only = started.length === 1 ? started[0] : undefined;
    if (only) culprit = { toolCallId: only.toolCall.id, toolName: only.toolCall.name };
  }
  for (const call of started) {
    const { id: toolCallId, name: toolName } = call.toolCall;
    if (call.kills === 0 && worker.idempotent.has(toolName) && culprit?.toolCallId !== toolCallId) {
      verdict.rerun.push(call);
      verdict.retry.push(call);
    } else verdict.failed.push([call, new WorkerCrashedError({ toolName, toolCallId, reason, culprit })]);
  }
  verdict.retry.sort((a, b) => a.id - b.id);
  return verdict;
}
