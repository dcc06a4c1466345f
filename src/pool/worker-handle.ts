import { describeValue } from '../errors/moat-error';
import { type Channel, connect } from '../frame/channel';
import type { Arrivals } from '../frame/framed-worker';
import { isPlainObject } from '../json/json-value';
import { readDescribeAnswer, readReady } from './call-checks';
import { afterQueuedMessages, idlePeriod } from './call-clock';
import { postCalls } from './call-post';
import {
  type CallRequest,
  type ToolDescriptor,
  type ToolWorkerApi,
  WORKER_MESSAGES,
  type WorkerConfig,
  type WorkerToPage,
} from './protocol';
import { StartedCalls } from './started-calls';

/** A call as one worker holds it: the pool's record plus its place in the worker's order. */
export interface Dispatched {
  request: CallRequest;
  /** Position among the calls posted to this worker (0, 1, …; -1 until posted): compared with its started count. */
  seq: number;
}

export interface WorkerEvents {
  /** What the worker said unasked, of the right shape (its fields are the pool's to check). */
  message(handle: WorkerHandle, message: WorkerToPage): void;
  /**
   * The worker died, could not start, or sent what the pool cannot read; `started` is false when
   * it never connected.
   */
  failure(handle: WorkerHandle, reason: string, started: boolean): void;
}

/**
 * One tool worker: its start and handshake, the batched outbox of calls, and the record of
 * which calls it holds. The pool decides; this only carries. The page asks the worker by Comlink
 * (`ToolWorkerApi`, wrapped: see `src/frame/channel.ts`) and reads what it says unasked checked.
 */
export class WorkerHandle {
  readonly #worker: Worker;
  /** The worker's own channel: everything goes over it, calls and control alike. */
  readonly #channel: Channel<ToolWorkerApi>;
  readonly #events: WorkerEvents;
  /** Which of the calls posted here it has started (told by the count in each `out`, `stop`'s answer, `fatal`). */
  readonly #started = new StartedCalls();
  /** Calls sent (or about to be), by pool id, in send order. */
  readonly #calls = new Map<number, Dispatched>();
  /** Calls sent this tick, posted together at its end (a call withdrawn meanwhile is left out then). */
  #outbox: CallRequest[] = [];
  /** A flush is queued for the end of this tick: calls sent until then go with it. */
  #flushScheduled = false;
  /**
   * Calls to stop, posted together at the end of the tick, or before any other message: a turn
   * of 10,000 calls stopped at once was 10,000 messages to another process in one task (300 ms).
   */
  #cancels: number[] = [];
  #connected = false;
  #dead = false;
  #stoppedBusy = false;
  /** Resolves with the tools' names once the worker answered `configure`; rejects if it never does. */
  readonly ready: Promise<string[]>;
  readonly #startTimer: ReturnType<typeof setTimeout>;
  readonly #startTimeoutMs: number;
  /** Rejects when the worker is gone (failed or terminated): what waits on it stops waiting. */
  readonly #gone: Promise<never>;
  #markGone!: (error: Error) => void;
  /** The tools this worker serves that may be run again (known once it is ready). */
  #idempotent: ReadonlySet<string> = new Set();
  /** The time limits tools declare (`defineTool({ timeoutMs })`), known once it is ready. */
  #timeouts: ReadonlyMap<string, number> = new Map();
  /** Calls for it are no longer sent: it is being stopped. */
  #retiring = false;
  /** Calls it was told to stop (`cancel`) that have not answered yet: it takes no new call meanwhile. */
  readonly #cancelled = new Set<number>();

  constructor(worker: Worker, config: WorkerConfig, events: WorkerEvents, startTimeoutMs: number) {
    this.#worker = worker;
    this.#events = events;
    this.#gone = new Promise<never>((_, reject) => {
      this.#markGone = reject;
    });
    this.#gone.catch(() => {});
    this.#startTimeoutMs = startTimeoutMs;
    this.#startTimer = setTimeout(
      () => this.#fail(`no answer within ${startTimeoutMs} ms (is serveTools() called in the worker?)`),
      startTimeoutMs,
    );
    // Before the handshake nothing it says unasked is read: it is not ours yet (a script that
    // never served tools, or one posting what looks like results). It settles no call and moves
    // no count; the start timeout deals with a worker that never answers.
    this.#channel = connect<ToolWorkerApi, WorkerToPage>(worker, {
      shapes: WORKER_MESSAGES,
      message: (message) => {
        if (this.#connected) this.#events.message(this, message);
      },
      malformed: (error, data) => {
        // Not our worker's protocol (a Comlink request among them: the page serves nothing):
        // nothing can be trusted from it any more.
        if (this.#connected && !this.#dead)
          this.#events.failure(
            this,
            `it sent a message the pool cannot read (${describeValue(data)}): ${error.message}`,
            true,
          );
      },
    });
    const port = config.store?.port;
    this.ready = Promise.race([
      this.#channel
        .request(
          (w) => w.configure(config),
          (answer) => this.#connect(answer),
          port ? { transfer: [port] } : {},
        )
        .catch((error: Error) => {
          // It refused the configuration (or its answer was not one): it will not serve.
          this.#fail(`it did not take the pool's configuration: ${error.message}`);
          throw error;
        }),
      this.#gone,
    ]);
    this.ready.catch(() => {});
    worker.addEventListener('error', (event: ErrorEvent & { reason?: unknown }) => {
      event.preventDefault();
      // A framed worker's failure (FrameFailureEvent) says why in `reason`.
      if (typeof event.reason === 'string') this.#fail(event.reason);
      else
        this.#fail(
          event.message
            ? `an uncaught error in the worker: ${event.message}`
            : 'the worker script failed to load or crashed',
        );
    });
    worker.addEventListener('messageerror', () => this.#fail('a message from the worker could not be read'));
  }

  /** The worker's answer to `configure`, checked: the tools' names once it is the pool's version. */
  #connect(answer: unknown): string[] {
    if (this.#dead || this.#connected) throw new Error('the worker is gone');
    const ready = readReady(answer);
    if (typeof ready === 'string') {
      // Said at once, and not again when the request's rejection reaches the start's failure.
      this.#fail(ready);
      throw new Error(ready);
    }
    clearTimeout(this.#startTimer);
    this.#connected = true;
    this.#idempotent = ready.idempotent;
    this.#timeouts = ready.timeouts;
    return ready.names;
  }

  /**
   * The tools' descriptors; the worker builds their JSON Schemas on this first request. Rejects
   * if the worker dies first; a worker that has not answered within the start timeout is taken
   * for broken and stopped (the pool replaces it).
   */
  async describe(): Promise<ToolDescriptor[]> {
    // Asked at once, even before the worker is up: it is read after `configure` (no round trip
    // for ready first). A worker that fails to start rejects it through #gone.
    const answer = this.#channel.request((w) => w.describe(), readDescribeAnswer);
    answer.catch(() => {});
    let cancel = () => {};
    const late = new Promise<never>((_, reject) => {
      cancel = idlePeriod(
        this.#startTimeoutMs,
        () => this.#calls.size > 0,
        () => {
          const reason = `no answer to describe() within ${this.#startTimeoutMs} ms`;
          this.#fail(reason);
          reject(new Error(reason));
        },
      );
    });
    try {
      return await Promise.race([answer, this.#gone, late]);
    } finally {
      cancel();
    }
  }

  /** Call `fn` once the worker is gone (failed or stopped). */
  whenGone(fn: () => void): void {
    this.#gone.catch(fn);
  }

  get dead(): boolean {
    return this.#dead;
  }

  /** True when the worker was stopped while it held calls (one of them may be why). */
  get stoppedBusy(): boolean {
    return this.#stoppedBusy;
  }

  get load(): number {
    return this.#calls.size;
  }

  get draining(): boolean {
    return this.#cancelled.size > 0;
  }

  /** The tools this worker serves that may be run again (known once it is ready). */
  get idempotent(): ReadonlySet<string> {
    return this.#idempotent;
  }

  /** The time limit a tool of this worker declares, if it does (known once it is ready). */
  toolTimeout(name: string): number | undefined {
    return this.#timeouts.get(name);
  }

  /** Calls for it are no longer sent: it is being stopped. */
  get retiring(): boolean {
    return this.#retiring;
  }

  /** Send it nothing more (it is about to be stopped); false when it already was, or is gone. */
  retire(): boolean {
    if (this.#dead || this.#retiring) return false;
    this.#retiring = true;
    return true;
  }

  /** The worker says it has started `count` calls (each `out`). */
  reported(count: number): void {
    this.#started.reported(count);
  }

  /** The worker's exact count, from its last word (`fatal`). */
  final(count: unknown): void {
    this.#started.final(count as number);
  }

  /** True when the worker said it started call `id` (one not posted yet, or not here: false). */
  begun(id: number): boolean {
    return this.#started.begun(this.#calls.get(id)?.seq ?? -1);
  }

  /**
   * Call `id` answered (a result or an error): it is no longer held here. Says whether it was
   * held, or was a call told to stop that has now stopped ('cancelled'), or neither.
   */
  answered(id: number): 'held' | 'cancelled' | 'none' {
    if (this.#calls.delete(id)) return 'held';
    return this.#cancelled.delete(id) ? 'cancelled' : 'none';
  }

  /** The ids of the calls it holds, in send order, which it no longer holds after this. */
  takeCalls(): number[] {
    const ids = [...this.#calls.keys()];
    this.#calls.clear();
    return ids;
  }

  /** Queue a call for this worker; calls queued in the same tick go in one message. */
  send(request: CallRequest): void {
    this.#calls.set(request.id, { request, seq: -1 });
    this.#outbox.push(request);
    if (this.#flushScheduled) return;
    this.#flushScheduled = true;
    queueMicrotask(() => {
      this.#flushScheduled = false;
      this.#flush();
    });
  }

  /**
   * Ask the worker to start nothing more and to say what it started; it answers after everything
   * it posted before. Resolves once it has, or after `waitMs` when it does not (it is stuck in a
   * call) once what it posted before has been read: a sealed worker's last words cross to the
   * page's process, and on a loaded machine took longer than `waitMs` to arrive (the call it was
   * stuck in was then taken for the one before it), so its frame is asked for a round trip first
   * (`arrived`, itself bounded).
   */
  stop(waitMs: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.#started.known) return resolve();
      const worker = this.#worker as Worker & Partial<Arrivals>;
      const timer = setTimeout(() => {
        void (worker.arrived?.() ?? Promise.resolve()).then(() => afterQueuedMessages(resolve));
      }, waitMs);
      this.#started.onFinal = () => {
        clearTimeout(timer);
        resolve();
      };
      this.#postCancels();
      this.#channel
        .request(
          (w) => w.stop(),
          (answer) => (isPlainObject(answer) ? answer.started : undefined),
        )
        .then(
          (started) => this.#started.final(started as number),
          () => {},
        );
    });
  }

  /**
   * Which calls it never started (see `StartedCalls.close`: exact once `stop` was answered;
   * never a call run twice).
   */
  unstarted(): Set<number> {
    const ids = new Set<number>();
    const started = this.#started.close();
    for (const [id, d] of this.#calls) if (d.seq < 0 || d.seq >= started) ids.add(id);
    return ids;
  }

  /** Forget a call: one not posted yet never will be (the flush leaves it out). Says which it was. */
  withdraw(id: number): 'unsent' | 'sent' | 'absent' {
    const d = this.#calls.get(id);
    if (!d) return 'absent';
    this.#calls.delete(id);
    return d.seq >= 0 ? 'sent' : 'unsent';
  }

  /**
   * Ask the worker to abort a call it was posted; calls cancelled in the same tick go in one
   * message. It takes no new call until the call answers (see `draining`).
   */
  cancel(id: number): void {
    this.#cancelled.add(id);
    this.#cancels.push(id);
    if (this.#cancels.length === 1) queueMicrotask(() => this.#postCancels());
  }

  /** Answer the worker's network question `ask` (`net?`); the cancels asked for before it go first. */
  answerNetwork(ask: number, allow: boolean): void {
    if (this.#dead) return;
    this.#postCancels();
    this.#channel.send((w) => w.answer(ask, allow));
  }

  #postCancels(): void {
    if (this.#dead || this.#cancels.length === 0) return;
    const ids = this.#cancels;
    this.#cancels = [];
    this.#channel.send((w) => w.cancel(ids));
  }

  /** Called back with requests that could not be cloned, and the error. */
  onUnsendable: (request: CallRequest, error: unknown) => void = () => {};
  /** Called once a batch is on its way and the worker is up (deadlines start now). */
  onSent: (requests: CallRequest[]) => void = () => {};

  /** Stop the worker; `reason` is what a describe() still waiting on it rejects with. */
  terminate(reason = 'the pool stopped the worker'): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#stoppedBusy = this.#calls.size > 0;
    this.#release(reason);
    this.#channel.close(new Error(reason));
    this.#worker.terminate();
  }

  #flush(): void {
    if (this.#dead || this.#outbox.length === 0) return;
    // Withdrawn since it was sent (aborted, say): it is no longer among the worker's calls.
    const calls = this.#outbox.filter((request) => this.#calls.get(request.id)?.request === request);
    this.#outbox = [];
    if (calls.length === 0) return;
    this.#postCancels();
    const { sent, unsendable } = postCalls(calls, (batch) => {
      const unsent = this.#channel.send((w) => w.calls(batch));
      if (unsent) throw unsent;
    });
    // The worker starts calls in the order it receives them: number them as they are posted.
    for (const request of sent) {
      const d = this.#calls.get(request.id);
      if (d) d.seq = this.#started.number();
    }
    for (const [request, error] of unsendable) {
      this.#calls.delete(request.id);
      this.onUnsendable(request, error);
    }
    if (this.#connected) this.onSent(sent);
    else
      this.ready.then(
        () => this.onSent(sent),
        () => {},
      );
  }

  /** Whatever waits on this worker stops waiting: `ready` (unless it was) and describe() reject with `reason`. */
  #release(reason: string): void {
    clearTimeout(this.#startTimer);
    this.#markGone(new Error(reason));
  }

  #fail(reason: string): void {
    if (this.#dead) return;
    this.#release(reason);
    this.#events.failure(this, reason, this.#connected);
  }
}
