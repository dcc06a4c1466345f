/**
 * Events pushed by a producer, read by one async iterator: buffered while nobody waits, handed
 * over at once when someone does. `end` finishes the iteration after the buffered events; `fail`
 * rejects the read that comes after them.
 */
export class EventQueue<T> {
  readonly #items: T[] = [];
  #head = 0;
  #waiting: ((step: IteratorResult<T>) => void) | undefined;
  #failWaiting: ((error: unknown) => void) | undefined;
  #ended = false;
  #error: { error: unknown } | undefined;

  push(event: T): void {
    if (this.#waiting) {
      const resolve = this.#waiting;
      this.#waiting = undefined;
      this.#failWaiting = undefined;
      resolve({ done: false, value: event });
    } else this.#items.push(event);
  }

  end(): void {
    this.#ended = true;
    this.#waiting?.({ done: true, value: undefined });
    this.#waiting = undefined;
    this.#failWaiting = undefined;
  }

  fail(error: unknown): void {
    this.#error = { error };
    this.#ended = true;
    this.#failWaiting?.(error);
    this.#waiting = undefined;
    this.#failWaiting = undefined;
  }

  next(): Promise<IteratorResult<T>> {
    if (this.#head < this.#items.length) {
      const item = this.#items[this.#head++] as T;
      if (this.#head === this.#items.length) {
        this.#items.length = 0;
        this.#head = 0;
      }
      return Promise.resolve({ done: false, value: item });
    }
    if (this.#error) return Promise.reject(this.#error.error);
    if (this.#ended) return Promise.resolve({ done: true, value: undefined });
    return new Promise((resolve, reject) => {
      this.#waiting = resolve;
      this.#failWaiting = reject;
    });
  }
}
