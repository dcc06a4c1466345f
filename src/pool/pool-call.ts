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
 */
import type { ToolTimeoutError } from '../errors/tool-timeout-error';
import type { ToolCall } from '../messages/types';
import type { CallSpend } from './output-budget';
import type { CallOptions } from './pool-options';
import type { HeldCall } from './stopped-calls';
import type { ToolResult } from './tool-result';
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
