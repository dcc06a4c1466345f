/**
 * How the network guard puts a URL to the page under `network: 'ask'`: a `net?` message that the
 * page answers with `net`, or, when the page shares memory, synchronously through the answers
 * word (for the synchronous APIs, XMLHttpRequest say). Only built-ins taken before tool code ran.
 */
import type { NetworkPolicyWire, WorkerToPage } from '../src/pool/protocol';
import type { AskPage } from './network-guard';
import {
  atomicsLoad,
  atomicsStore,
  atomicsWait,
  construct,
  mapDeleteOf,
  mapGetOf,
  mapSetOf,
  OriginalInt32Array,
  OriginalMap,
  OriginalPromise,
  ownValue,
} from './primordials';

/** How long a synchronous question waits for the page before the answer is no. */
const SYNC_WAIT_MS = 10_000;

export class PageAsks {
  readonly #post: (message: WorkerToPage) => void;
  #asks = 0;
  readonly #pending = construct(OriginalMap, []) as Map<number, (allow: boolean) => void>;

  constructor(post: (message: WorkerToPage) => void) {
    this.#post = post;
  }

  /** The guard's way to ask, for this policy. */
  asker(network: NetworkPolicyWire): AskPage {
    const asker: AskPage = {
      sync: undefined,
      async: (url, api) =>
        construct(OriginalPromise, [
          (resolve: (allow: boolean) => void) => {
            const ask = ++this.#asks;
            mapSetOf(this.#pending, ask, resolve);
            this.#post({ t: 'net?', ask, url, api });
          },
        ]) as Promise<boolean>,
    };
    // Absent when the page shares no memory: read as own, or tool code's getter would answer.
    const buffer = network.mode === 'ask' ? ownValue(network, 'answers') : undefined;
    if (buffer) {
      const answers = construct(OriginalInt32Array, [buffer]) as Int32Array;
      asker.sync = (url, api) => {
        atomicsStore(answers, 0, 0);
        this.#post({ t: 'net?', ask: ++this.#asks, url, api, slot: 0 });
        const outcome = atomicsWait(answers, 0, 0, SYNC_WAIT_MS);
        const allowed = outcome !== 'timed-out' && atomicsLoad(answers, 0) === 1;
        atomicsStore(answers, 0, 0);
        return allowed;
      };
    }
    return asker;
  }

  /** The page's answer to question `ask` (anything but `true` is no). */
  answer(ask: number, allow: unknown): void {
    mapGetOf(this.#pending, ask)?.(allow === true);
    mapDeleteOf(this.#pending, ask);
  }
}
