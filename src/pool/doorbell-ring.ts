/**
 * The page's side of the doorbell (`DOORBELL` in protocol.ts; the worker's side is
 * `worker/doorbell-park.ts`): it hands calls to a parked worker through shared memory, and counts
 * every message it posts, so that a rung call never overtakes one sent by message.
 */
import { findNonJSON } from '../json/json-value';
import { encodeCalls } from './call-post';
import { type Doorbell, doorbellOf, writeCalls } from './doorbell';
import { type CallRequest, DOORBELL } from './protocol';

export class DoorbellRing {
  readonly #bell: Doorbell;

  constructor(memory: SharedArrayBuffer) {
    this.#bell = doorbellOf(memory);
  }

  /**
   * Hand calls to the worker if it is parked. False when it is not, or the calls are not plain
   * JSON (a Date, say, which only a message carries as it is) or too big: then they go by message.
   */
  ring(calls: readonly CallRequest[]): boolean {
    const words = this.#bell.words;
    if (Atomics.load(words, DOORBELL.state) !== DOORBELL.parked) return false;
    // A message the worker has not taken yet must go first: these would overtake it.
    if (Atomics.load(words, DOORBELL.posted) !== Atomics.load(words, DOORBELL.received)) return false;
    for (const r of calls) {
      if (findNonJSON(r.args) || (r.state !== undefined && findNonJSON(r.state))) return false;
      if (r.context !== undefined && findNonJSON(r.context)) return false;
    }
    // Parked, the worker reads nothing: the buffer is ours until the state says rung.
    if (!writeCalls(this.#bell, encodeCalls(calls))) return false;
    if (Atomics.compareExchange(words, DOORBELL.state, DOORBELL.parked, DOORBELL.rung) !== DOORBELL.parked)
      return false; // it stopped waiting meanwhile
    Atomics.notify(words, DOORBELL.state);
    return true;
  }

  /** After posting to the worker: count it, and wake the worker if it is parked (it would not see the message). */
  posted(): void {
    const words = this.#bell.words;
    Atomics.add(words, DOORBELL.posted, 1);
    if (Atomics.compareExchange(words, DOORBELL.state, DOORBELL.parked, DOORBELL.wake) === DOORBELL.parked)
      Atomics.notify(words, DOORBELL.state);
  }
}
