import { describeValue } from '../errors/moat-error';
import { PoolClosedError } from '../errors/pool-closed-error';
import { PoolQueueFullError } from '../errors/pool-queue-full-error';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import type { Culprit } from '../errors/worker-crashed-error';
import { WorkerStartError } from '../errors/worker-start-error';
import type { ToolCall } from '../messages/types';
import type { ToolSpec } from '../providers/tool-spec';
import { checkCallOptions, checkToolCall, outcomeOf, startFailure, unsendable } from './call-checks';
import { CallClock, resolveTimeLimit } from './call-clock';
import { CallDispatch, Quarantine } from './call-dispatch';
import { deliverResults, isOutMessage, notify, type ResultSink } from './deliver-results';
import type { OutputLimits } from './output-budget';
import type { PoolCall } from './pool-call';
import { CallLedger, judgeStoppedCalls } from './pool-call';
import type { ToolName, ToolOutput, ToolResult, ToolSet, TypedToolCall } from './pool-options';
import {
  type CallOptions,
  type CallOutcome,
  type PoolStats,
  resolvePoolOptions,
  type WorkerPoolOptions,
} from './pool-options';
import type { CallRequest, ToolDescriptor, WorkerToPage } from './protocol';
import { ToolCatalog } from './tool-catalog';
import type { WorkerHandle } from './worker-handle';
import { WorkerRoster, WorkerSpawner } from './worker-roster';

export type { CallOptions, CallOutcome, NetworkPolicy, PoolStats, WorkerPoolOptions } from './pool-options';

/** How long a stopped worker may take to say what it started; silent, it is stuck in a call. */
const STOP_WAIT_MS = 50;

/** Why a worker is being stopped: the call at fault (settled with `error`), when there is one. */
interface Fault {
  call?: PoolCall;
  error?: Error;
  culprit?: Culprit;
}

/**
 * A pool of tool workers. Usable on its own, without the invoker.
 *
 * @example
 * const pool = createWorkerPool({ worker: toolsUrl, size: 2, timeoutMs: 10_000 }); // sealed
 * const tools = toOpenAITools(await pool.specs());
 * const result = await pool.call({ id: 'call_1', name: 'multiply', args: { a: 3, b: 12 } });
 * resultValue(result); // 36
 */
export function createWorkerPool<Tools extends ToolSet = ToolSet>(options: WorkerPoolOptions): WorkerPool<Tools> {
  return new WorkerPool<Tools>(options);
}

/** A pool of tool workers; `Tools` types its calls by the worker module's tools (see `ToolSet`). */
export class WorkerPool<Tools extends ToolSet = ToolSet> {
  readonly #spawner: WorkerSpawner;
  readonly #timeoutMs: number;
  readonly #maxToolTimeoutMs: number;
  readonly #maxQueue: number;
  /** Where workers' output goes, measured against the page's limits. */
  readonly #sink: ResultSink;
  /** The shared workers, and the isolated ones that run quarantined calls one at a time. */
  readonly #workers: WorkerRoster<WorkerHandle>;
  /** Calls waiting for a worker (and the quarantine's, for an isolated one). */
  readonly #dispatch: CallDispatch;
  readonly #quarantine: Quarantine;
  /** The calls taken and not settled; each settles there, once. */
  readonly #calls = new CallLedger((call, reason) => this.#abort(call, reason));
  /** Time limits: each call's deadline, and the grace a cancelled call gets to stop. */
  readonly #clock: CallClock<PoolCall, WorkerHandle>;
  /** What happened, for `stats`. */
  readonly #counts = { restarted: 0, rerun: 0, recovered: 0, quarantined: 0 };
  #closed = false;
  /** The tools' descriptors, asked of an idle worker (a new one if none runs), and the page's grants. */
  readonly #catalog: ToolCatalog;

  constructor(options: WorkerPoolOptions) {
    const o = resolvePoolOptions(options);
    this.#catalog = new ToolCatalog(
      () => this.#workers.any(),
      () => this.#closed,
      o.grants,
    );
    this.#spawner = new WorkerSpawner(o);
    o.storeHost?.limitTo(() => this.#catalog.storeNamespaces());
    this.#timeoutMs = o.timeoutMs;
    this.#maxToolTimeoutMs = o.maxToolTimeoutMs;
    this.#maxQueue = o.maxQueue;
    this.#workers = new WorkerRoster({ size: o.size, concurrency: o.concurrency, isolated: o.quarantineWorkers }, () =>
      this.#spawn(),
    );
    this.#clock = new CallClock(
      o.abortGraceMs,
      (call) => this.#timedOut(call),
      (worker, culprit) =>
        this.#retire(
          worker,
          `a cancelled call (${culprit.toolCallId}, '${culprit.toolName}') ignored its abort signal for ${o.abortGraceMs} ms`,
          true,
          { culprit },
        ),
    );
    this.#quarantine = new Quarantine(o.quarantineMs);
    this.#dispatch = new CallDispatch({
      workers: this.#workers,
      quarantine: this.#quarantine,
      stateFor: (name, state) => this.#catalog.stateFor(name, state),
      dispatched: (_worker, isolated) => {
        if (isolated) this.#counts.quarantined++;
      },
    });
    this.#sink = {
      calls: this.#calls,
      clock: this.#clock,
      limits: o.limits,
      refuse: (call, error) => this.#abort(call, error),
    };
  }

  /** What the page accepts from this pool's workers (`maxResultSize`, `maxProgressSize`, `maxTurnSize`). */
  get limits(): Readonly<OutputLimits> {
    return this.#sink.limits;
  }

  get stats(): PoolStats {
    return { ...this.#workers.counts(), queued: this.#dispatch.queued, ...this.#counts };
  }

  /** The tools the workers serve, as provider-neutral specs. Starts a worker if none runs yet. */
  async specs(): Promise<ToolSpec[]> {
    return (await this.descriptors()).map((d) => d.spec);
  }

  /**
   * The tools' specs with what each declares (state injection, store namespaces), checked; a
   * spec's `needsApproval` is true when the page's grant or the tool's declaration says so.
   */
  descriptors(): Promise<ToolDescriptor[]> {
    return this.#catalog.descriptors();
  }

  /**
   * Start every worker now rather than on first use; resolves when all are ready. Rejects with
   * `WorkerStartError` when one cannot start, or `PoolClosedError` when the pool closes first.
   */
  async warm(): Promise<void> {
    if (this.#closed) throw new PoolClosedError();
    const workers = this.#workers.fill();
    try {
      await Promise.all(workers.map((w) => w.ready));
    } catch (error) {
      if (this.#closed) throw new PoolClosedError();
      throw startFailure(error);
    }
  }

  /**
   * Run one tool call in a worker. Rejects with a typed error (`ToolNotFoundError`,
   * `ToolInputValidationError`, `ToolExecutionError`, `ToolTimeoutError`, `ToolOutputError`,
   * `WorkerCrashedError`, `PoolQueueFullError`, `PoolClosedError`) or the signal's reason.
   */
  call<N extends ToolName<Tools>>(
    toolCall: TypedToolCall<Tools, N>,
    options: CallOptions = {},
  ): Promise<ToolResult<N, ToolOutput<Tools, N>>> {
    // The types are the page's view of the tools; the call itself is checked as any other.
    const call = toolCall as ToolCall;
    return new Promise<ToolResult>((resolve, reject) => {
      if (this.#closed) return reject(new PoolClosedError());
      // Everything is checked before the call is registered: a bad call leaves nothing behind
      // (a bad option throws here, and the promise rejects with it).
      const problem = checkToolCall(call);
      if (problem) return reject(problem);
      checkCallOptions(options);
      if (options.signal?.aborted) return reject(options.signal.reason);
      if (this.#dispatch.queued >= this.#maxQueue) return reject(new PoolQueueFullError({ maxQueue: this.#maxQueue }));
      // The tool's own limit is known once a worker has it (see #started).
      const timeoutMs = this.#timeLimit(options, undefined);
      this.#dispatch.push(this.#calls.open(call, options, timeoutMs, resolve, reject));
      this.#dispatch.pump();
    }) as Promise<ToolResult<N, ToolOutput<Tools, N>>>;
  }

  /**
   * Run one model turn's calls; they go out together, one message per worker. Each call's failure
   * is its outcome: rejects only when `toolCalls` is not an array.
   */
  callMany(toolCalls: readonly ToolCall[], options: CallOptions = {}): Promise<CallOutcome[]> {
    if (!Array.isArray(toolCalls))
      return Promise.reject(new TypeError(`Expected an array of tool calls, got ${describeValue(toolCalls)}`));
    // One turn: its calls share maxTurnSize (unless the caller gave them a turn of its own).
    const turn = options.turn ? options : { ...options, turn: { used: 0 } };
    return Promise.all(toolCalls.map((tc) => outcomeOf(this.call(tc as TypedToolCall<Tools>, turn))));
  }

  /** Stop every worker; calls queued or running are rejected with `PoolClosedError`. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    this.#clock.forget();
    for (const call of this.#calls.all()) this.#calls.settle(call, new PoolClosedError());
    for (const worker of this.#workers.clear()) worker.terminate('the pool was closed');
    this.#dispatch.clear();
    this.#spawner.close();
  }

  // ── workers ──────────────────────────────────────────────────────────────────────────────

  /** A new worker, wired to the pool (the roster keeps it). */
  #spawn(): WorkerHandle {
    let handle: WorkerHandle;
    try {
      handle = this.#spawner.spawn(this.#events);
    } catch (failure) {
      // The factory itself threw: fail what is queued rather than spin.
      if (!this.#workers.alive) queueMicrotask(() => this.#failQueued(failure as Error));
      throw failure;
    }
    handle.onSent = (requests) => this.#started(handle, requests);
    handle.onUnsendable = (request, error) => {
      const call = this.#calls.get(request.id);
      if (call) this.#calls.settle(call, unsendable(call, error));
      this.#dispatch.pump();
    };
    return handle;
  }

  // ── results and faults ───────────────────────────────────────────────────────────────────

  readonly #events = {
    message: (handle: WorkerHandle, message: WorkerToPage) => this.#receive(handle, message),
    failure: (handle: WorkerHandle, reason: string, connected: boolean) => this.#retire(handle, reason, connected),
  };

  #receive(handle: WorkerHandle, message: WorkerToPage): void {
    // The handle passes on nothing from before the handshake, and only messages of the right
    // shape (WORKER_MESSAGES): this is a worker serving tools. Its network questions are the
    // spawner's to answer.
    switch (message.t) {
      case 'out':
        if (!isOutMessage(message)) {
          // An entry that answers no call: the worker is not ours; nothing can be trusted from it.
          this.#retire(handle, `it sent a message the pool cannot read (${describeValue(message)})`, true);
          break;
        }
        deliverResults(handle, message, this.#sink);
        // Settled calls free room on their worker: what waits can go now (nothing to do otherwise).
        if (this.#dispatch.waiting) this.#dispatch.pump();
        break;
      case 'fatal':
        handle.final(message.started);
        // Its reason reaches every call it held, in their errors: a line, not whatever it sent.
        this.#retire(handle, typeof message.reason === 'string' ? message.reason.slice(0, 1_000) : 'it stopped', true);
        break;
    }
  }

  /**
   * Stop a worker and account for every call it held; a fresh worker takes its place. The call
   * at fault gets its error at once; its tool goes into quarantine. A live worker is first asked
   * to stop (it answers unless it is stuck in a call), so that what it posted is read first.
   */
  #retire(handle: WorkerHandle, reason: string, connected: boolean, fault: Fault = {}): void {
    if (!handle.retire()) return;
    const isolated = this.#workers.remove(handle);
    this.#clock.forget(handle);
    if (fault.call && fault.error) this.#calls.settle(fault.call, fault.error);
    if (fault.culprit) this.#quarantine.add(fault.culprit.toolName);
    if (connected) this.#counts.restarted++;
    // Its replacement starts now, while the calls it held are accounted for.
    if (connected && !this.#closed) {
      try {
        if (!isolated && this.#workers.short) this.#workers.add();
      } catch {
        // #spawn failed what waits if no worker is left to serve it
      }
      this.#dispatch.pump();
    }
    if (!connected || handle.dead) {
      this.#account(handle, reason, connected, fault);
      return;
    }
    // Asked to stop, the worker starts nothing more and answers after everything it posted
    // before (results a busy page has not read yet are not lost with it); stuck, it does not
    // answer, and what it posted has arrived by the time the wait ends.
    handle.stop(STOP_WAIT_MS).then(() => this.#account(handle, reason, connected, fault));
  }

  #account(handle: WorkerHandle, reason: string, connected: boolean, fault: Fault): void {
    const live = (id: number) => {
      const call = this.#calls.get(id);
      return call && !call.settled ? [call] : [];
    };
    const unstarted = handle.unstarted();
    handle.terminate(reason);
    const sent = handle.takeCalls().flatMap(live);
    const verdict = judgeStoppedCalls({
      sent,
      unstarted,
      connected,
      idempotent: handle.idempotent,
      culprit: fault.culprit,
      reason,
    });
    this.#counts.recovered += verdict.recovered;
    this.#counts.rerun += verdict.rerun.length;
    for (const name of verdict.suspects) this.#quarantine.add(name);
    for (const [call, error] of verdict.failed) this.#calls.settle(call, error);
    for (const call of verdict.rerun)
      if (call.options.onRerun) notify(call.options.onRerun, { toolCallId: call.toolCall.id, reason });
    const retry = verdict.retry;
    if (!connected && this.#workers.shared.length === 0) this.#catalog.forget();

    // Calls that never ran (or run again) go first, in their original order; a re-run counts
    // its kill (a second is final).
    const rerun = new Set(verdict.rerun);
    for (const call of retry) call.requeue(rerun.has(call));
    this.#dispatch.pushFront(retry);
    if (this.#closed) return;
    // A worker that never started: do not loop on a broken script; fail what waits.
    if (!connected && this.#dispatch.queued > 0) this.#failQueued(new WorkerStartError({ reason }));
    else this.#dispatch.pump();
  }

  #failQueued(error: Error): void {
    for (const call of this.#dispatch.takeQueued()) this.#calls.settle(call, error);
  }

  #abort(call: PoolCall, reason: unknown): void {
    if (call.settled) return;
    const worker = call.worker;
    this.#calls.settle(
      call,
      reason instanceof Error ? reason : new DOMException(String(reason), 'AbortError'),
      undefined,
      reason,
    );
    if (!worker || worker.dead) return;
    // Not posted yet: take it back, nothing runs. Posted: ask the tool to stop, and watch.
    if (worker.withdraw(call.id) !== 'sent') return;
    // It takes no new call until this one ends (or it is stopped for it after the grace): a
    // call sent now would share its fate.
    worker.cancel(call.id);
    this.#clock.abandon(call.id, worker, { toolCallId: call.toolCall.id, toolName: call.toolCall.name });
    this.#dispatch.pump();
  }

  /** Deadlines start when calls are posted, or when the worker is up if it is still starting. */
  #started(handle: WorkerHandle, requests: CallRequest[]): void {
    for (const request of requests) {
      const call = this.#calls.get(request.id);
      // Settled since, or (posted to a worker that was still starting) sent elsewhere since.
      if (call?.state !== 'sent' || call.worker !== handle) continue;
      call.posted(this.#timeLimit(call.options, handle.toolTimeout(call.toolCall.name)), this.#due);
    }
  }

  readonly #due = (call: PoolCall, ms: number) => this.#clock.due(call, ms);

  /**
   * The most specific limit wins: the call's, the tool's own (held to the ceiling), the caller's
   * default, the pool's.
   */
  #timeLimit(options: CallOptions, tool: number | undefined): number {
    return resolveTimeLimit({
      call: options.timeoutMs,
      tool,
      invoker: options.defaultTimeoutMs,
      pool: this.#timeoutMs,
      ceiling: this.#maxToolTimeoutMs,
    });
  }

  /**
   * A call's time ran out (unless it settled, or runs again, since): its worker is stopped. When
   * the worker has not said it started the call, another call may be holding it: the call is
   * not blamed yet. The worker is asked what it started: a call it never began runs elsewhere;
   * one it did began fails with the timeout and is the culprit (see `judgeStoppedCalls`).
   */
  #timedOut(call: PoolCall): void {
    const worker = call.worker;
    if (call.settled || !worker) return;
    const { id: toolCallId, name: toolName } = call.toolCall;
    const error = new ToolTimeoutError({ toolName, toolCallId, timeoutMs: call.timeoutMs });
    // Its worker is already being stopped (for another call), and asked what it started: a
    // call it never started is sent elsewhere; one that ran out of time fails with this.
    const begun = worker.begun(call.id);
    if (worker.retiring || !begun) call.overdue(error);
    if (worker.retiring) return;
    // The same words either way: the call's time did run out; who is to blame is the culprit's.
    const reason = `call ${toolCallId} ('${toolName}') timed out after ${call.timeoutMs} ms`;
    this.#retire(worker, reason, true, begun ? { call, error, culprit: { toolCallId, toolName } } : {});
  }
}
