/**
 * One timer for many deadlines: a binary min-heap of (deadline, item), so that ten thousand
 * calls in flight cost one `setTimeout`, not ten thousand. Entries are removed lazily: `expired`
 * hands back items whose deadline passed, and the caller ignores those already settled; `keep`
 * sweeps out the ones the caller no longer needs.
 */
export class DeadlineHeap<T> {
  readonly #deadlines: number[] = [];
  readonly #items: T[] = [];

  get size(): number {
    return this.#items.length;
  }

  /** The earliest deadline, or undefined when empty. */
  peek(): number | undefined {
    return this.#deadlines[0];
  }

  push(deadline: number, item: T): void {
    const d = this.#deadlines;
    const it = this.#items;
    let i = d.length;
    d.push(deadline);
    it.push(item);
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if ((d[parent] as number) <= deadline) break;
      d[i] = d[parent] as number;
      it[i] = it[parent] as T;
      i = parent;
    }
    d[i] = deadline;
    it[i] = item;
  }

  /** Remove and return every item whose deadline is at or before `now`, earliest first, with it. */
  expired(now: number): [item: T, deadline: number][] {
    const out: [T, number][] = [];
    while (this.#deadlines.length > 0 && (this.#deadlines[0] as number) <= now) {
      const deadline = this.#deadlines[0] as number;
      out.push([this.#pop(), deadline]);
    }
    return out;
  }

  /** Keep only the entries `wanted` says yes to (in linear time). */
  keep(wanted: (item: T, deadline: number) => boolean): void {
    const d = this.#deadlines;
    const it = this.#items;
    let n = 0;
    for (let i = 0; i < d.length; i++) {
      if (!wanted(it[i] as T, d[i] as number)) continue;
      d[n] = d[i] as number;
      it[n] = it[i] as T;
      n++;
    }
    d.length = n;
    it.length = n;
    // Heapify bottom-up: each parent sifts down below its children.
    for (let i = (n >> 1) - 1; i >= 0; i--) this.#siftDown(i, d[i] as number, it[i] as T, n);
  }

  #pop(): T {
    const d = this.#deadlines;
    const it = this.#items;
    const top = it[0] as T;
    const lastDeadline = d.pop() as number;
    const lastItem = it.pop() as T;
    const n = d.length;
    if (n > 0) this.#siftDown(0, lastDeadline, lastItem, n);
    return top;
  }

  /** Put (deadline, item) at `i` or below, moving smaller children up, within the first `n` entries. */
  #siftDown(start: number, deadline: number, item: T, n: number): void {
    const d = this.#deadlines;
    const it = this.#items;
    let i = start;
    while (true) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && (d[child + 1] as number) < (d[child] as number)) child++;
      if ((d[child] as number) >= deadline) break;
      d[i] = d[child] as number;
      it[i] = it[child] as T;
      i = child;
    }
    d[i] = deadline;
    it[i] = item;
  }
}
