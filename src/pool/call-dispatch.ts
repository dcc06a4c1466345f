/**
 * Calls waiting for a worker, and which worker takes each. Calls go in the order taken, to the
 * least-loaded shared worker with room; a quarantined tool's calls wait apart for an isolated
 * worker, one call at a time. A call settled while it waited (aborted, say) is dropped here.
 */
import type { PoolCall } from './pool-call';
import type { CallRequest } from './protocol';
import type { WorkerHandle } from './worker-handle';
import type { WorkerRoster } from './worker-roster';

export interface CallDispatchDeps {
  /** Where a call can go now: a shared worker with room, an idle isolated one (or none). */
  workers: Pick<WorkerRoster<WorkerHandle>, 'pick' | 'pickIsolated'>;
  quarantine: Quarantine;
  /** The part of the caller's state a tool receives (see `ToolCatalog.stateFor`). */
  stateFor(toolName: string, state: unknown): unknown;
  /** A call is on its way to `worker`; `isolated` when it went to a quarantine worker. */
  dispatched(worker: WorkerHandle, isolated: boolean): void;
}

export class CallDispatch {
  readonly #queue = new Fifo<PoolCall>();
  /** Calls of quarantined tools, waiting for an isolated worker. */
  readonly #isolatedQueue = new Fifo<PoolCall>();
  readonly #deps: CallDispatchDeps;
  #pumping = false;

  constructor(deps: CallDispatchDeps) {
    this.#deps = deps;
  }

  /** Calls waiting for a shared worker (what `maxQueue` bounds). */
  get queued(): number {
    return this.#queue.size;
  }

  /** True when any call waits, for a shared worker or an isolated one. */
  get waiting(): boolean {
    return this.#queue.size > 0 || this.#isolatedQueue.size > 0;
  }

  push(call: PoolCall): void {
    this.#queue.push(call);
  }

  /** Calls that go before everything waiting (re-sent after their worker stopped), in their order. */
  pushFront(calls: readonly PoolCall[]): void {
    this.#queue.pushFront(calls);
  }

  /** Take every call waiting for a shared worker out of the queue. */
  takeQueued(): PoolCall[] {
    const taken: PoolCall[] = [];
    for (let call = this.#queue.shift(); call; call = this.#queue.shift()) if (!call.settled) taken.push(call);
    return taken;
  }

  clear(): void {
    this.#queue.clear();
    this.#isolatedQueue.clear();
  }

  /** Send what waits to workers with room, until none has. */
  pump(): void {
    // A call that cannot be sent is settled while it is being dispatched; this loop goes on.
    if (this.#pumping) return;
    this.#pumping = true;
    try {
      this.#pumpShared();
      if (this.#isolatedQueue.size > 0) this.#pumpIsolated();
    } finally {
      this.#pumping = false;
    }
  }

  #pumpShared(): void {
    const { workers, quarantine } = this.#deps;
    const queue = this.#queue;
    for (let call = queue.peek(); call; call = queue.peek()) {
      if (call.settled) {
        queue.shift();
        continue;
      }
      if (quarantine.has(call.toolCall.name)) {
        queue.shift();
        this.#isolatedQueue.push(call);
        continue;
      }
      const worker = workers.pick();
      if (!worker) break;
      queue.shift();
      this.#send(call, worker, false);
    }
  }

  /** Quarantined calls, each alone on an isolated worker. */
  #pumpIsolated(): void {
    const waiting = this.#isolatedQueue;
    for (let call = waiting.peek(); call; call = waiting.peek()) {
      if (call.settled) {
        waiting.shift();
        continue;
      }
      const worker = this.#deps.workers.pickIsolated();
      if (!worker) return;
      waiting.shift();
      this.#send(call, worker, true);
    }
  }

  #send(call: PoolCall, worker: WorkerHandle, isolated: boolean): void {
    this.#deps.dispatched(worker, isolated);
    call.send(worker);
    const tc = call.toolCall;
    const request: CallRequest = { id: call.id, toolCallId: tc.id, name: tc.name, args: tc.args };
    const o = call.options;
    if (o.state !== undefined) {
      const state = this.#deps.stateFor(tc.name, o.state);
      if (state !== undefined) request.state = state;
    }
    if (o.context !== undefined) request.context = o.context;
    if (o.resultFormat !== undefined) request.resultFormat = o.resultFormat;
    worker.send(request);
  }
}

/**
 * Tools that recently timed out or crashed a worker, remembered for a while: their calls run on
 * a worker of their own (one call at a time), so a repeat offence costs only itself.
 */
export class Quarantine {
  readonly #until = new Map<string, number>();
  readonly #ms: number;

  /** `ms` 0: nothing is ever quarantined. */
  constructor(ms: number) {
    this.#ms = ms;
  }

  add(toolName: string): void {
    if (this.#ms > 0) this.#until.set(toolName, performance.now() + this.#ms);
  }

  has(toolName: string): boolean {
    if (this.#until.size === 0) return false;
    const until = this.#until.get(toolName);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    this.#until.delete(toolName);
    return false;
  }
}

/**
 * A first-in, first-out queue that takes from the front in constant time: an array read from a
 * moving head (`Array.prototype.shift` copies the rest), compacted when most of it has been read.
 */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** Put `items` before everything waiting, in their order. */
  pushFront(items: readonly T[]): void {
    if (items.length === 0) return;
    this.#items = items.concat(this.#items.slice(this.#head));
    this.#head = 0;
  }

  /** The item next in line, left in place. */
  peek(): T | undefined {
    return this.#head < this.#items.length ? this.#items[this.#head] : undefined;
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head] as T;
    this.#items[this.#head++] = undefined as T; // not kept alive by the queue
    if (this.#head === this.#items.length) {
      this.#items.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  clear(): void {
    this.#items.length = 0;
    this.#head = 0;
  }
}
