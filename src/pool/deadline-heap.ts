/**
 * One timer for many deadlines: a binary min-heap of (deadline, item), so that ten thousand
 * calls in flight cost one `setTimeout`, not ten thousand. Entries are removed lazily: `expired`
 * hands back items whose deadline passed, and the caller ignores those already settled.
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

  /** Remove and return every item whose deadline is at or before `now`, earliest first. */
  expired(now: number): T[] {
    const out: T[] = [];
    while (this.#deadlines.length > 0 && (this.#deadlines[0] as number) <= now) out.push(this.#pop());
    return out;
  }

  #pop(): T {
    const d = this.#deadlines;
    const it = this.#items;
    const top = it[0] as T;
    const lastDeadline = d.pop() as number;
    const lastItem = it.pop() as T;
    const n = d.length;
    if (n === 0) return top;
    let i = 0;
    while (true) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && (d[child + 1] as number) < (d[child] as number)) child++;
      if ((d[child] as number) >= lastDeadline) break;
      d[i] = d[child] as number;
      it[i] = it[child] as T;
      i = child;
    }
    d[i] = lastDeadline;
    it[i] = lastItem;
    return top;
  }
}
