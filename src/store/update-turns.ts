/**
 * Turns at updating an item, for updates whose read and write are two trips apart (a store
 * served over a port: the updater runs at the far end). Updates of one item take turns, so that
 * they do not keep spoiling each other's compare-and-swap; a turn not given back within its time
 * passes anyway. Correctness never rests on the turns (the swap still compares): they only keep
 * the updaters fair.
 */
export class UpdateTurns {
  readonly #tails = new Map<string, Promise<void>>();
  readonly #turnMs: number;

  constructor(turnMs = 2_000) {
    this.#turnMs = turnMs;
  }

  /** Wait for the item's turn. Resolves with the function that ends it (at most once). */
  async take(item: string): Promise<() => void> {
    const previous = this.#tails.get(item) ?? Promise.resolve();
    let end!: () => void;
    const mine = new Promise<void>((resolve) => {
      end = resolve;
    });
    const tail = previous.then(() => mine);
    this.#tails.set(item, tail);
    await previous;
    const timer = setTimeout(() => release(), this.#turnMs);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(timer);
      end();
      if (this.#tails.get(item) === tail) this.#tails.delete(item);
    };
    return release;
  }
}
