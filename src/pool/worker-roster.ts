/**
 * The pool's workers, and which one takes the next call: the shared ones (up to `size`, calls
 * spread by load) and the isolated ones that run quarantined calls one at a time; and how the
 * pool makes one (`WorkerSpawner`).
 */
import { startFailure } from './call-checks';
import type { NetworkPolicy, PoolConfig } from './pool-options';
import type { NetworkPolicyWire, WorkerConfig, WorkerToPage } from './protocol';
import { type WorkerEvents, WorkerHandle } from './worker-handle';

/** What the roster needs of a worker. */
export interface RosterWorker {
  readonly dead: boolean;
  readonly retiring: boolean;
  /** Calls sent to it and not answered. */
  readonly load: number;
  /**
   * A call it was told to stop is still running (an abort, a call past its output limit): it
   * gets no new call until that one ends or the worker is stopped for it.
   */
  readonly draining?: boolean;
}

export interface RosterLimits {
  /** Shared workers at most. */
  size: number;
  /** Calls a shared worker is given at once, at most. */
  concurrency: number;
  /** Isolated workers at most. */
  isolated: number;
}

export class WorkerRoster<W extends RosterWorker> {
  /** The shared workers in service, in the order they started. */
  readonly shared: W[] = [];
  /** The isolated workers in service. */
  readonly isolated: W[] = [];
  readonly #start: () => W;
  readonly #limits: RosterLimits;

  /** `start` starts a worker, or throws (the pool's factory failed). */
  constructor(limits: RosterLimits, start: () => W) {
    this.#limits = limits;
    this.#start = start;
  }

  /** Start one more worker now. Throws what `start` threw. */
  add(isolated = false): W {
    const worker = this.#start();
    (isolated ? this.isolated : this.shared).push(worker);
    return worker;
  }

  /** Start shared workers until there are `size`. */
  fill(): W[] {
    while (this.shared.length < this.#limits.size) this.add();
    return this.shared;
  }

  /** Fewer shared workers than `size` (one was taken out of service). */
  get short(): boolean {
    return this.shared.length < this.#limits.size;
  }

  /**
   * The shared worker for the next call: the least-loaded one in service with room, or a new one
   * when none is idle and there may be more. Undefined when all are full.
   */
  pick(): W | undefined {
    let best: W | undefined;
    for (const w of this.shared) {
      if (w.dead || w.retiring || w.draining || w.load >= this.#limits.concurrency) continue;
      if (!best || w.load < best.load) best = w;
    }
    if ((!best || best.load > 0) && this.short) {
      try {
        return this.add();
      } catch {
        return best; // the pool deals with a factory that fails
      }
    }
    return best;
  }

  /** For a quarantined call: an idle isolated worker, or a new one while there may be more. */
  pickIsolated(): W | undefined {
    const idle = this.isolated.find((w) => !w.dead && !w.retiring && !w.draining && w.load === 0);
    if (idle || this.isolated.length >= this.#limits.isolated) return idle;
    try {
      return this.add(true);
    } catch {
      return undefined;
    }
  }

  /** A worker to ask something of (the tools' descriptors): an idle live one, a busy one, or a new one. */
  any(): W {
    const live = this.shared.filter((w) => !w.dead);
    return live.find((w) => w.load === 0) ?? live[0] ?? this.add();
  }

  /** True while a shared worker is alive (starting, or in service). */
  get alive(): boolean {
    return this.shared.some((w) => !w.dead);
  }

  /** Take `worker` out of service; true when it was an isolated one. */
  remove(worker: W): boolean {
    const isolated = this.isolated.includes(worker);
    for (const list of [this.shared, this.isolated]) {
      const index = list.indexOf(worker);
      if (index >= 0) list.splice(index, 1);
    }
    return isolated;
  }

  /** Every worker in service, shared then isolated. */
  all(): W[] {
    return [...this.shared, ...this.isolated];
  }

  /** Empty the roster; returns the workers it held. */
  clear(): W[] {
    const all = this.all();
    this.shared.length = 0;
    this.isolated.length = 0;
    return all;
  }

  /** The shared workers in service: how many, how many are busy, and the calls they run. */
  counts(): { workers: number; busy: number; running: number } {
    const live = this.shared.filter((w) => !w.dead && !w.retiring);
    return {
      workers: live.length,
      busy: live.filter((w) => w.load > 0).length,
      running: live.reduce((n, w) => n + w.load, 0),
    };
  }
}

/**
 * How the pool makes a worker: the factory, what each new worker is told in its `configure` (the
 * network policy as the worker enforces it, the store) and given to answer it, and the answers
 * to its network questions. The pool wires up what a handle reports; this only makes the handle.
 */
export class WorkerSpawner {
  readonly #config: Pick<PoolConfig, 'make' | 'network' | 'store' | 'storeHost' | 'startTimeoutMs'>;

  constructor(config: PoolConfig) {
    this.#config = config;
  }

  /**
   * A new worker, started, reporting to `events` (its network questions are answered here, from
   * the pool's policy). Throws a `WorkerStartError` when the factory
   * throws (nothing is left behind: a store link made for it is stopped).
   */
  spawn(events: WorkerEvents): WorkerHandle {
    const { make, network, store, storeHost, startTimeoutMs } = this.#config;
    const storeLink = storeHost?.link();
    try {
      const worker = make();
      const wire = networkWire(network);
      const config: WorkerConfig =
        store === undefined
          ? { network: wire }
          : { network: wire, store: storeLink ? { name: store, port: storeLink.port } : { name: store } };
      const handle = new WorkerHandle(
        worker,
        config,
        {
          message: (h, message) =>
            message.t === 'net?' ? answerNetwork(network, h, message) : events.message(h, message),
          failure: events.failure,
        },
        startTimeoutMs,
      );
      if (storeLink) handle.whenGone(storeLink.stop);
      return handle;
    } catch (error) {
      storeLink?.stop();
      throw startFailure(error);
    }
  }

  /** The pool is closed: a store served by the page for framed workers stops. */
  close(): void {
    this.#config.storeHost?.close();
  }
}

/** The policy for a worker's `configure`: a mode. */
function networkWire(policy: NetworkPolicy): NetworkPolicyWire {
  return policy === 'allow' || policy === 'deny' ? { mode: policy } : { mode: 'ask' };
}

/** Answer a worker's `net?`: the policy function's verdict (anything but `true`, or a throw, refuses). */
function answerNetwork(
  policy: NetworkPolicy,
  handle: WorkerHandle,
  message: Extract<WorkerToPage, { t: 'net?' }>,
): void {
  let allow = policy === 'allow';
  if (typeof policy === 'function') {
    try {
      allow = policy(message.url, message.api) === true;
    } catch {
      // a policy that throws refuses
    }
  }
  handle.answerNetwork(message.ask, allow);
}
