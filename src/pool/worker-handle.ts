import { describeValue } from '../errors/moat-error';
import { reviveError } from '../errors/serialize-error';
import { postCalls } from './call-post';
import {
  type CallRequest,
  type DescribeAnswer,
  type PageToWorker,
  PROTOCOL_VERSION,
  type ToolDescriptor,
  type WorkerConfig,
  type WorkerToPage,
} from './protocol';
import { StartedCalls } from './started-calls';
import { afterQueuedMessages, idlePeriod } from './worker-waits';

/** A call as one worker holds it: the pool's record plus its place in the worker's order. */
export interface Dispatched {
  request: CallRequest;
  /** Position among the calls posted to this worker (0, 1, …; -1 until posted): compared with its started count. */
  seq: number;
}

export interface WorkerEvents {
  message(handle: WorkerHandle, message: WorkerToPage): void;
  /** The worker died or could not start; `started` is false when it never connected. */
  failure(handle: WorkerHandle, reason: string, started: boolean): void;
}

/**
 * One tool worker: its start and handshake, the batched outbox of calls, and the record of
 * which calls it holds. The pool decides; this only carries.
 */
export class WorkerHandle {
  /** The worker's own channel: everything goes over it, calls and control alike. */
  readonly #worker: Worker;
  readonly #events: WorkerEvents;
  /** Which of the calls posted here it has started (told by the count in each `out`, `stopped`, `fatal`). */
  readonly started = new StartedCalls();
  /** Calls sent (or about to be), by pool id, in send order. */
  readonly calls = new Map<number, Dispatched>();
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
  /** Resolves with the tools' names once the worker answered `hello`; rejects if it never does. */
  readonly ready: Promise<string[]>;
  #rejectReady!: (error: Error) => void;
  readonly #startTimer: ReturnType<typeof setTimeout>;
  readonly #startTimeoutMs: number;
  /** Rejects when the worker is gone (failed or terminated): what waits on it stops waiting. */
  readonly #gone: Promise<never>;
  #markGone!: (error: Error) => void;
  /** describe() calls waiting for their answer, in the order asked (the worker answers in order). */
  readonly #described: ((answer: DescribeAnswer) => void)[] = [];
  /** The tools this worker serves that may be run again (known once it is ready). */
  idempotent: ReadonlySet<string> = new Set();
  /** The time limits tools declare (`defineTool({ timeoutMs })`), known once it is ready. */
  timeouts: ReadonlyMap<string, number> = new Map();
  /** Calls for it are no longer sent: it is being stopped. */
  retiring = false;
  /** Calls it was told to stop (`cancel`) that have not answered yet: it takes no new call meanwhile. */
  readonly cancelled = new Set<number>();

  constructor(worker: Worker, config: WorkerConfig, events: WorkerEvents, startTimeoutMs: number) {
    this.#worker = worker;
    this.#events = events;
    let resolveReady!: (names: string[]) => void;
    this.ready = new Promise<string[]>((resolve, reject) => {
      resolveReady = resolve;
      this.#rejectReady = reject;
    });
    this.ready.catch(() => {});
    this.#gone = new Promise<never>((_, reject) => {
      this.#markGone = reject;
    });
    this.#gone.catch(() => {});
    this.#startTimeoutMs = startTimeoutMs;
    this.#startTimer = setTimeout(
      () => this.#fail(`no answer within ${startTimeoutMs} ms (is serveTools() called in the worker?)`),
      startTimeoutMs,
    );
    worker.addEventListener('message', (event: MessageEvent<WorkerToPage>) => {
      const message = event.data;
      if (this.#connected) {
        // The answer to describe() is the handle's own; everything else is the pool's.
        if (message?.t === 'described') this.#described.shift()?.(message);
        else this.#events.message(this, message);
        return;
      }
      // Before the handshake only `ready` is read. Anything else is not ours (a script that never
      // served tools saying hello, or posting what looks like results): ignored, it settles no
      // call and moves no count; the start timeout deals with a worker that never says ready.
      if (typeof message !== 'object' || message === null || message.t !== 'ready') return;
      if (message.version !== PROTOCOL_VERSION) {
        this.#fail(
          `the worker speaks version ${message.version} of the pool protocol, the page version ${PROTOCOL_VERSION} (use one version of moat on both sides)`,
        );
        return;
      }
      const { names, idempotent } = message;
      if (!isNames(names) || !isNames(idempotent)) {
        this.#fail(`it said it was ready, naming its tools as ${describeValue(names)} (a list of names expected)`);
        return;
      }
      clearTimeout(this.#startTimer);
      this.#connected = true;
      this.idempotent = new Set(idempotent);
      this.timeouts = timeoutsIn(message.timeouts);
      resolveReady([...names]);
    });
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
    worker.postMessage({ t: 'hello', config } satisfies PageToWorker, config.store?.port ? [config.store.port] : []);
  }

  /**
   * The tools' descriptors; the worker builds their JSON Schemas on this first request. Rejects
   * if the worker dies first; a worker that has not answered within the start timeout is taken
   * for broken and stopped (the pool replaces it).
   */
  async describe(): Promise<ToolDescriptor[]> {
    // Posted at once, even before the worker is up: it is read after `hello` (no round trip for
    // ready first). A worker that fails to start rejects it through #gone.
    const answer = new Promise<DescribeAnswer>((resolve) => this.#described.push(resolve));
    this.post({ t: 'describe' });
    let cancel = () => {};
    const late = new Promise<never>((_, reject) => {
      cancel = idlePeriod(
        this.#startTimeoutMs,
        () => this.calls.size > 0,
        () => {
          const reason = `no answer to describe() within ${this.#startTimeoutMs} ms`;
          this.#fail(reason);
          reject(new Error(reason));
        },
      );
    });
    let outcome: DescribeAnswer;
    try {
      outcome = await Promise.race([answer, this.#gone, late]);
    } finally {
      cancel();
    }
    if ('error' in outcome) throw reviveError(outcome.error);
    return outcome.descriptors;
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
    return this.calls.size;
  }

  get draining(): boolean {
    return this.cancelled.size > 0;
  }

  /** Queue a call for this worker; calls queued in the same tick go in one message. */
  send(request: CallRequest): void {
    this.calls.set(request.id, { request, seq: -1 });
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
   * call) once what it posted before has been read.
   */
  stop(waitMs: number): Promise<void> {
    return new Promise((resolve) => {
      if (this.started.known) return resolve();
      this.started.onFinal = resolve;
      setTimeout(() => afterQueuedMessages(resolve), waitMs);
      this.post({ t: 'stop' });
    });
  }

  /**
   * Which calls it never started (see `StartedCalls.close`: exact once `stop` was answered;
   * never a call run twice).
   */
  unstarted(): Set<number> {
    const ids = new Set<number>();
    const started = this.started.close();
    for (const [id, d] of this.calls) if (d.seq < 0 || d.seq >= started) ids.add(id);
    return ids;
  }

  /** Forget a call: one not posted yet never will be (the flush leaves it out). Says which it was. */
  withdraw(id: number): 'unsent' | 'sent' | 'absent' {
    const d = this.calls.get(id);
    if (!d) return 'absent';
    this.calls.delete(id);
    return d.seq >= 0 ? 'sent' : 'unsent';
  }

  /** Ask the worker to abort a call it was posted; calls cancelled in the same tick go in one message. */
  cancel(id: number): void {
    this.#cancels.push(id);
    if (this.#cancels.length === 1) queueMicrotask(() => this.#postCancels());
  }

  /** Post a message; the cancels asked for before it go first. */
  post(message: PageToWorker): void {
    if (this.#dead) return;
    this.#postCancels();
    this.#worker.postMessage(message);
  }

  #postCancels(): void {
    if (this.#dead || this.#cancels.length === 0) return;
    const ids = this.#cancels;
    this.#cancels = [];
    this.#worker.postMessage({ t: 'cancel', ids } satisfies PageToWorker);
  }

  /** Called back with requests that could not be cloned, and the error. */
  onUnsendable: (request: CallRequest, error: unknown) => void = () => {};
  /** Called once a batch is on its way and the worker is up (deadlines start now). */
  onSent: (requests: CallRequest[]) => void = () => {};

  /** Stop the worker; `reason` is what a describe() still waiting on it rejects with. */
  terminate(reason = 'the pool stopped the worker'): void {
    if (this.#dead) return;
    this.#dead = true;
    this.#stoppedBusy = this.calls.size > 0;
    this.#release(reason);
    this.#worker.terminate();
  }

  #flush(): void {
    if (this.#dead || this.#outbox.length === 0) return;
    // Withdrawn since it was sent (aborted, say): it is no longer among the worker's calls.
    const calls = this.#outbox.filter((request) => this.calls.get(request.id)?.request === request);
    this.#outbox = [];
    if (calls.length === 0) return;
    this.#postCancels();
    const { sent, unsendable } = postCalls(calls, (message) => this.#worker.postMessage(message));
    // The worker starts calls in the order it receives them: number them as they are posted.
    for (const request of sent) {
      const d = this.calls.get(request.id);
      if (d) d.seq = this.started.number();
    }
    for (const [request, error] of unsendable) {
      this.calls.delete(request.id);
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
    this.#rejectReady(new Error(reason));
    this.#markGone(new Error(reason));
  }

  #fail(reason: string): void {
    if (this.#dead) return;
    this.#release(reason);
    this.#events.failure(this, reason, this.#connected);
  }
}

/** A list of tool names, as a worker's `ready` gives them. */
function isNames(value: unknown): value is string[] {
  return Array.isArray(value) && value.length <= 10_000 && value.every((n) => typeof n === 'string' && n.length <= 64);
}

/** A ready message's declared limits, checked. */
function timeoutsIn(value: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (typeof value !== 'object' || value === null) return out;
  for (const [name, ms] of Object.entries(value)) if (typeof ms === 'number' && ms > 0) out.set(name, ms);
  return out;
}
