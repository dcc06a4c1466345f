/**
 * A text that grows by many small pieces (a long argument streamed by a model) at a cost that
 * stays the same per piece however long the text gets, and that is read once it is whole.
 *
 * The engine keeps `a += b` as a rope, cheap however long `a` is; but reading a rope (a character
 * of it, a slice, a regex) flattens it, a copy of the whole text, and a rope of millions of small
 * nodes costs the garbage collector several times the work that made it. So the pieces go into
 * flat blocks of a few KB, each joined to the rope as one node: each character is copied once,
 * into its block, and the whole is flattened only by whoever reads it at the end.
 */

/** The size of the flat blocks the text is kept in. */
const BLOCK = 4096;

export class GrowingText {
  #done = ''; // whole blocks
  #tail = ''; // the pieces since, under BLOCK characters

  /** The text so far (cheap: nothing is copied until the caller reads its characters). */
  get value(): string {
    return this.#tail === '' ? this.#done : this.#done + this.#tail;
  }

  get length(): number {
    return this.#done.length + this.#tail.length;
  }

  append(piece: string): void {
    this.#tail += piece;
    if (this.#tail.length < BLOCK) return;
    // Reading a character flattens the tail's pieces into one block (BLOCK characters or so).
    this.#tail.charCodeAt(0);
    this.#done += this.#tail;
    this.#tail = '';
  }

  /** Start again from `text` (empty by default). */
  reset(text = ''): void {
    this.#done = text;
    this.#tail = '';
  }
}
