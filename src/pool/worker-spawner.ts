/**
 * How the pool makes a worker: the factory, what each new worker is told in its `configure` (the
 * network policy as the worker enforces it, the store) and given to answer it, and the answers
 * to its network questions. The pool wires up what a handle reports; this only makes the handle.
 */
import { startFailure } from './call-checks';
import type { NetworkPolicy, PoolConfig } from './pool-options';
import type { NetworkPolicyWire, WorkerConfig, WorkerToPage } from './protocol';
import { type WorkerEvents, WorkerHandle } from './worker-handle';

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
export function networkWire(policy: NetworkPolicy): NetworkPolicyWire {
  return policy === 'allow' || policy === 'deny' ? { mode: policy } : { mode: 'ask' };
}

/** Answer a worker's `net?`: the policy function's verdict (anything but `true`, or a throw, refuses). */
export function answerNetwork(
  policy: NetworkPolicy,
  handle: WorkerHandle,
  message: Extract<WorkerToPage, { t: 'net?' }>,
): void {
  let allow = false;
  if (typeof policy === 'function') {
    try {
      allow = policy(message.url, message.api) === true;
    } catch {
      allow = false;
    }
  } else {
    allow = policy === 'allow';
  }
  handle.answerNetwork(message.ask, allow);
}
