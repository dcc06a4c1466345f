/**
 * What the pool needs of workers it does not make with a plain factory (sealed ones, see
 * `framedWorkers`): how to make them, and how to serve them the store they cannot open.
 */
export interface WorkerHost {
  readonly kind: 'framed';
  /** The worker factory, for a pool whose network policy is (or is not) `'deny'`. */
  factory(networkDenied: boolean): () => Worker;
  /** Serves the IndexedDB database `name` to the workers, one port each. */
  storeHost(name: string): StoreHost;
}

export interface StoreHost {
  /** A port for one worker's `hello`, and how to stop serving it once the worker is gone. */
  link(): { port: MessagePort; stop: () => void };
  /**
   * What the workers may touch, asked before the first store request is served: the namespaces
   * their tools declared (undefined: the whole database).
   */
  limitTo(namespaces: () => Promise<readonly string[][] | undefined>): void;
  close(): void;
}
