/**
 * The worker's side of the doorbell (`DOORBELL` in protocol.ts): it counts the messages it has
 * taken from the page, and when idle it parks: it waits on the state word (blocked, no CPU) for
 * at most `DOORBELL.parkMs` rather than in its event loop, so that calls rung in start at once.
 */
import { type Doorbell, doorbellOf, readCalls } from '../src/pool/doorbell';
import { type CallBatch, DOORBELL } from '../src/pool/protocol';

export class DoorbellPark {
  readonly #bell: Doorbell;
  /** Nothing is running or under way: the worker may park. */
  readonly #idle: () => boolean;
  readonly #receive: (batch: CallBatch) => void;
  /** Messages taken from the page (the doorbell's `received`). */
  #taken = 0;
  #scheduled = false;
  #parking = false;

  /** `idle` says the worker may park; `receive` takes the calls rung in. */
  constructor(memory: SharedArrayBuffer, idle: () => boolean, receive: (batch: CallBatch) => void) {
    this.#bell = doorbellOf(memory);
    this.#idle = idle;
    this.#receive = receive;
  }

  /** One more message taken from the page. */
  took(): void {
    this.#taken++;
    Atomics.store(this.#bell.words, DOORBELL.received, this.#taken);
  }

  /** Once this task's microtasks have run: park, if the worker is idle. */
  parkSoon(): void {
    if (this.#scheduled || this.#parking || !this.#idle()) return;
    this.#scheduled = true;
    queueMicrotask(() => {
      this.#scheduled = false;
      this.#park();
    });
  }

  /**
   * Wait on the doorbell while idle: calls rung in are received at once, and the worker parks
   * again. A timeout, or a message from the page (which moves the state to `wake`), sends it
   * back to its event loop.
   */
  #park(): void {
    const bell = this.#bell;
    const words = bell.words;
    this.#parking = true;
    try {
      while (this.#idle()) {
        Atomics.store(words, DOORBELL.state, DOORBELL.parked);
        // Checked after saying so: a message posted from now on wakes us.
        if (Atomics.load(words, DOORBELL.posted) === this.#taken)
          Atomics.wait(words, DOORBELL.state, DOORBELL.parked, DOORBELL.parkMs);
        const state = Atomics.compareExchange(words, DOORBELL.state, DOORBELL.parked, DOORBELL.idle);
        if (state === DOORBELL.parked) return; // timed out, or a message is on its way
        if (state !== DOORBELL.rung) {
          Atomics.store(words, DOORBELL.state, DOORBELL.idle); // woken: a message is on its way
          return;
        }
        // Rung: the page had no message outstanding, so these calls overtake nothing.
        const batch = readCalls(bell);
        Atomics.store(words, DOORBELL.state, DOORBELL.idle);
        this.#receive(batch);
      }
    } finally {
      this.#parking = false;
    }
  }
}
