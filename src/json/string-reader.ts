/**
 * Reading one JSON string literal that arrives in pieces: plain runs are sliced in one go, and an
 * escape (`\n`, `\uXXXX`, a surrogate pair written as two escapes) may be cut anywhere between
 * two pieces. The partial JSON parser hands it the text from the opening quote on.
 *
 * A long string (a file the model writes as one argument) must cost the same per piece at its end
 * as at its start: the text grows as a `GrowingText`, and nothing here reads it once it is
 * written (that would copy all of it). What must be known of its end, half of a surrogate pair,
 * is held back before it goes in.
 */

import { GrowingText } from './growing-text';

const SIMPLE_ESCAPES: Record<string, string> = {
  __proto__: null as never,
  '"': '"',
  '\\': '\\',
  '/': '/',
  b: '\b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
};

/** Where the string stands after `read`. */
export const OPEN = 0;
export const CLOSED = 1;
export const BROKEN = 2;

export class JsonStringReader {
  /**
   * The string's characters read so far. A high surrogate that ends what has arrived (raw or as a
   * `\uD8xx` escape) is not in it yet: it goes in with whatever follows it, so the text never
   * shows half of a pair.
   */
  get text(): string {
    return this.#text.value;
  }
  readonly #text = new GrowingText();
  state: typeof OPEN | typeof CLOSED | typeof BROKEN = OPEN;
  /** When `BROKEN`: the position in the piece, the character and what was expected there. */
  brokenAt = 0;
  found = '';
  expected = '';
  #escape = 0; // 0: none; 1: after '\'; 2..5: reading \uXXXX digits
  #hex = '';
  #pendingHigh = ''; // a high surrogate waiting to see whether a low surrogate follows

  /** A new string starts (just after its opening quote). */
  start(): void {
    this.#text.reset();
    this.state = OPEN;
    this.#escape = 0;
    this.#hex = '';
    this.#pendingHigh = '';
  }

  /**
   * Read from `s` at `i`: returns where reading stopped, just after the closing quote when the
   * string ended (`CLOSED`), else at the end of `s` (still `OPEN`, or `BROKEN` at a bad character).
   */
  read(s: string, i: number): number {
    const n = s.length;
    while (i < n) {
      if (this.#escape === 0) {
        let j = i;
        let c = 0;
        while (j < n) {
          c = s.charCodeAt(j);
          if (c === 34 || c === 92 || c < 32) break;
          j++;
        }
        if (j > i) {
          if (this.#pendingHigh) this.#flushHigh();
          const last = s.charCodeAt(j - 1);
          if (j === n && last >= 0xd800 && last <= 0xdbff) {
            // The piece ends inside a pair: its high half waits for the next piece.
            if (j - 1 > i) this.#text.append(s.slice(i, j - 1));
            this.#pendingHigh = s[j - 1] as string;
            return n;
          }
          this.#text.append(s.slice(i, j));
        }
        if (j === n) return n;
        if (c < 32) return this.#broken(j, s, 'a character of a string (control characters must be escaped)');
        if (c === 92) {
          this.#escape = 1;
          i = j + 1;
          continue;
        }
        // the closing quote
        if (this.#pendingHigh) this.#flushHigh();
        this.state = CLOSED;
        return j + 1;
      }
      const ch = s[i] as string;
      if (this.#escape === 1) {
        const simple = SIMPLE_ESCAPES[ch];
        if (simple !== undefined) {
          if (this.#pendingHigh) this.#flushHigh();
          this.#text.append(simple);
          this.#escape = 0;
        } else if (ch === 'u') {
          this.#escape = 2;
          this.#hex = '';
        } else {
          return this.#broken(i, s, 'an escape character (one of "\\/bfnrtu)');
        }
        i++;
        continue;
      }
      // \uXXXX
      const c = s.charCodeAt(i);
      const isHex = (c >= 48 && c <= 57) || (c >= 65 && c <= 70) || (c >= 97 && c <= 102);
      if (!isHex) return this.#broken(i, s, 'a hexadecimal digit');
      this.#hex += ch;
      i++;
      if (this.#hex.length < 4) continue;
      this.#escape = 0;
      const code = Number.parseInt(this.#hex, 16);
      if (code >= 0xdc00 && code <= 0xdfff && this.#pendingHigh) {
        this.#text.append(this.#pendingHigh + String.fromCharCode(code));
        this.#pendingHigh = '';
      } else {
        if (this.#pendingHigh) this.#flushHigh();
        if (code >= 0xd800 && code <= 0xdbff) this.#pendingHigh = String.fromCharCode(code);
        else this.#text.append(String.fromCharCode(code));
      }
    }
    return n;
  }

  #flushHigh(): void {
    this.#text.append(this.#pendingHigh);
    this.#pendingHigh = '';
  }

  #broken(at: number, s: string, expected: string): number {
    this.state = BROKEN;
    this.brokenAt = at;
    this.found = s[at] as string;
    this.expected = expected;
    return s.length;
  }
}
