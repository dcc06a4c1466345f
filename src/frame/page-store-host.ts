/**
 * A framed pool's store. Its workers run at an opaque origin, which has no IndexedDB: the page
 * opens the database (on the first call a tool makes) and serves it to each worker over a port
 * of its own (see `store-port.ts`). Tools see the same `runtime.store` as in any other pool.
 *
 * The page holds the workers to the namespaces it granted their tools (`createWorkerPool({
 * grants })`), all of them together: the worker scopes each tool to what it declares, but tools
 * share a realm, and code in it could write to the port itself. A module none of whose tools
 * was granted a namespace gets no store; `'all'` gives it the whole database.
 */
import { scopeStore } from '../store/scoped-store';
import type { Store } from '../store/types';
import { UpdateTurns } from '../store/update-turns';
import { onceUntilFailure } from './once-until-failure';
import { serveStoreOn } from './store-port';

export class PageStoreHost {
  readonly #name: string;
  #store: Promise<Store> | undefined;
  /** Shared by every worker's port: updates of one item from different workers take turns. */
  readonly #turns = new UpdateTurns();
  #limits: () => Promise<readonly string[][] | undefined> = async () => undefined;
  /** The store as the workers may see it; asked again after a failure (describe may fail once). */
  readonly #served = onceUntilFailure(() =>
    Promise.all([this.#open(), this.#limits()]).then(([store, allowed]) =>
      allowed ? scopeStore(store, allowed) : store,
    ),
  );

  constructor(name: string) {
    this.#name = name;
  }

  /** The port a worker gets in its `configure`, and how to stop serving it once the worker is gone. */
  link(): { port: MessagePort; stop: () => void } {
    const { port1, port2 } = new MessageChannel();
    const stop = serveStoreOn(port1, () => this.#served(), this.#turns);
    return { port: port2, stop };
  }

  limitTo(namespaces: () => Promise<readonly string[][] | undefined>): void {
    this.#limits = namespaces;
  }

  /** Close the database, if a tool ever opened it. */
  close(): void {
    this.#store?.then(
      (store) => store.close(),
      () => {},
    );
  }

  #open(): Promise<Store> {
    // Loaded when first needed: a page whose tools never touch the store never loads its code.
    this.#store ??= import('../store/indexeddb-store').then(({ openIndexedDBStore }) => openIndexedDBStore(this.#name));
    return this.#store;
  }
}
