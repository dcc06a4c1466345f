/**
 * A first-in, first-out queue that takes from the front in constant time: an array read from a
 * moving head (`Array.prototype.shift` copies the rest), compacted when most of it has been read.
 */
export class Fifo<T> {
  #items: T[] = [];
  #head = 0;

  get size(): number {
    return this.#items.length - this.#head;
  }

  push(item: T): void {
    this.#items.push(item);
  }

  /** Put `items` before everything waiting, in their order. */
  pushFront(items: readonly T[]): void {
    if (items.length === 0) return;
    this.#items = items.concat(this.#items.slice(this.#head));
    this.#head = 0;
  }

  /** The item next in line, left in place. */
  peek(): T | undefined {
    return this.#head < this.#items.length ? this.#items[this.#head] : undefined;
  }

  shift(): T | undefined {
    if (this.#head >= this.#items.length) return undefined;
    const item = this.#items[this.#head] as T;
    this.#items[this.#head++] = undefined as T; // not kept alive by the queue
    if (this.#head === this.#items.length) {
      this.#items.length = 0;
      this.#head = 0;
    } else if (this.#head > 1024 && this.#head * 2 > this.#items.length) {
      this.#items = this.#items.slice(this.#head);
      this.#head = 0;
    }
    return item;
  }

  clear(): void {
    this.#items.length = 0;
    this.#head = 0;
  }
}
