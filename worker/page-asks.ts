/**
 * How the network guard puts a URL to the page under `network: 'ask'`: a `net?` message that the
 * page answers with `net`. Only APIs that can wait for the answer ask (fetch-like ones); the
 * guard refuses the synchronous ones. Only built-ins taken before tool code ran.
 */
import type { WorkerToPage } from '../src/pool/protocol';
import type { AskPage } from './network-guard';
import { construct, mapDeleteOf, mapGetOf, mapSetOf, OriginalMap, OriginalPromise } from './primordials';

export class PageAsks {
  readonly #post: (message: WorkerToPage) => void;
  #asks = 0;
  readonly #pending = construct(OriginalMap, []) as Map<number, (allow: boolean) => void>;

  constructor(post: (message: WorkerToPage) => void) {
    this.#post = post;
  }

  /** The guard's way to ask. */
  readonly ask: AskPage = (url, api) =>
    construct(OriginalPromise, [
      (resolve: (allow: boolean) => void) => {
        const ask = ++this.#asks;
        mapSetOf(this.#pending, ask, resolve);
        this.#post({ t: 'net?', ask, url, api });
      },
    ]) as Promise<boolean>;

  /** The page's answer to question `ask` (anything but `true` is no). */
  answer(ask: number, allow: unknown): void {
    mapGetOf(this.#pending, ask)?.(allow === true);
    mapDeleteOf(this.#pending, ask);
  }
}
