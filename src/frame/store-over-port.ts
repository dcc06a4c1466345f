/**
 * The far end of a store served over a MessagePort (`serveStoreOn`, ./store-port.ts): a `Store`
 * whose calls go through the port, each a question to the page (`PageAsks`). A sealed tool
 * worker's `runtime.store` (its opaque origin has no IndexedDB of its own).
 *
 * `update` cannot send its updater (a function) across: it reads the item (taking the item's turn
 * at the far end), runs the updater here, and asks the far end to write the result only if the
 * value is still the one it read (compare and swap), which ends the turn; if a writer outside the
 * turns changed it, it reads again.
 */
import { MoatError } from '../errors/moat-error';
import { reviveError } from '../errors/serialize-error';
import type { JSONValue } from '../json/json-value';
import type {
  ListNamespacesOptions,
  Store,
  StoreItem,
  StoreOp,
  StoreSearchOptions,
  StoreUpdater,
} from '../store/types';
import {
  checkKey,
  checkListOptions,
  checkNamespace,
  checkOps,
  checkSearchOptions,
  checkUpdater,
  checkValue,
} from '../store/validate';
import { PageAsks } from './sealed-end';
import type { Answer, Ask, Method, ReadArgs, ReadOutcome, SwapArgs, SwapOutcome } from './store-port';

/** How many times an update reads again after losing a race before it gives up. */
const UPDATE_RETRIES = 50;

/** A `Store` whose calls are served at the other end of `port` (see `serveStoreOn`). */
export function storeOverPort(port: MessagePort): Store {
  return new PortStore(port);
}

class PortStore implements Store {
  /** Each call is a question to the far end (the page), answered by its id. */
  readonly #asks: PageAsks<{ method: Method; args: unknown[] }>;

  constructor(port: MessagePort) {
    // A value that cannot be cloned (a function among the values, say) fails its call: the store would refuse it too.
    this.#asks = new PageAsks((id, ask) => port.postMessage({ id, ...ask } satisfies Ask), reviveError);
    port.addEventListener('message', (event: MessageEvent) => {
      const answer = event.data as Answer | undefined;
      if (typeof answer?.id === 'number') this.#asks.answer(answer.id, answer);
    });
    port.start();
  }

  #ask<T>(method: Method, args: unknown[]): Promise<T> {
    return this.#asks.ask({ method, args }) as Promise<T>;
  }

  // Values are checked here too: one that cannot cross the port gets the store's own error.
  async put(namespace: string[], key: string, value: JSONValue, options?: { ttlMs?: number }): Promise<void> {
    checkNamespace(namespace);
    checkKey(key);
    checkValue(value);
    return this.#ask('put', [namespace, key, value, options]);
  }

  get(namespace: string[], key: string): Promise<StoreItem | undefined> {
    return this.#ask('get', [namespace, key]);
  }

  delete(namespace: string[], key: string): Promise<void> {
    return this.#ask('delete', [namespace, key]);
  }

  async update(
    namespace: string[],
    key: string,
    updater: StoreUpdater,
    options?: { ttlMs?: number },
  ): Promise<StoreItem | undefined> {
    checkUpdater(updater);
    for (let tries = 0; tries <= UPDATE_RETRIES; tries++) {
      const read: ReadArgs = [namespace, key];
      const { turn, item: current } = await this.#ask<ReadOutcome>('read', read);
      let next: JSONValue | undefined;
      try {
        next = updater(current?.value);
        if (next !== undefined) checkValue(next);
      } catch (error) {
        void this.#ask('release', [turn]).catch(() => {});
        throw error;
      }
      const expected = current === undefined ? null : JSON.stringify(current.value);
      const swap: SwapArgs = [turn, namespace, key, expected, next, options];
      const outcome = await this.#ask<SwapOutcome>('swap', swap);
      if ('item' in outcome) return outcome.item;
    }
    throw new MoatError({
      message: `The item ${JSON.stringify(key)} in [${namespace.join(', ')}] changed under every one of ${UPDATE_RETRIES + 1} tries to update it`,
    });
  }

  async search(namespacePrefix: string[], options?: StoreSearchOptions): Promise<StoreItem[]> {
    checkNamespace(namespacePrefix, { allowEmpty: true });
    checkSearchOptions(options);
    return this.#ask('search', [namespacePrefix, options]);
  }

  async listNamespaces(options?: ListNamespacesOptions): Promise<string[][]> {
    checkListOptions(options);
    return this.#ask('listNamespaces', [options]);
  }

  async batch(ops: readonly StoreOp[]): Promise<(StoreItem | undefined)[]> {
    checkOps(ops);
    return this.#ask('batch', [ops]);
  }

  /** The far end owns the store: nothing to release here. */
  close(): void {}
}
