/**
 * An incremental, linear-time parser for JSON that is still arriving: tool-call arguments streamed
 * by a model. Each `push(delta)` reads only the new text (total work O(total length), where the
 * usual approach re-parses the whole accumulated string on every chunk, O(n²)) and returns the
 * best-effort value so far:
 * - closed containers and completed values are in it;
 * - an unfinished string appears truncated (`{"a": "hel` → `{ a: 'hel' }`);
 * - an unfinished number appears as read so far (`{"a": 3, "b": 1` → `{ a: 3, b: 1 }`);
 * - an unfinished literal (`tru`) or a key still waiting for its value is left out;
 * - a `__proto__` key becomes an own property, as with `JSON.parse`: nothing reaches a prototype.
 *
 * The value is live: the parser keeps extending the same objects in place, so reading it after
 * every chunk costs nothing. Take `structuredClone(value)` to keep a snapshot of one moment.
 * Invalid input never throws: `state` becomes `'failed'`, `error` says where and why, and the
 * value stays what it was before the bad character.
 */

import { BROKEN, JsonStringReader, OPEN } from './string-reader';

/** How far a parse got: the whole document, a best-effort prefix, or not JSON at all. */
export type PartialJsonState = 'complete' | 'repaired' | 'failed';

export interface PartialJsonResult {
  state: PartialJsonState;
  /** The value (best effort when `'repaired'`); `undefined` when `'failed'` or nothing was read. */
  value: unknown;
  /** Why parsing failed, with the position of the first bad character. */
  error?: string;
}

export interface PartialJsonParser {
  /** Read more text; returns the best-effort value so far (the same live object every time). */
  push(delta: string): unknown;
  /** Declare the input ended: a number at the top level is then complete. */
  finish(): PartialJsonResult;
  /** The best-effort value so far. */
  readonly value: unknown;
  readonly state: PartialJsonState;
  readonly error: string | undefined;
  /** Characters read so far. */
  readonly length: number;
}

// What the parser expects next.
const VALUE = 0; // a value (after ':' or ',' in an array, or at the top)
const ARRAY_FIRST = 1; // a value or ']' (just after '[')
const OBJECT_FIRST = 2; // '"' or '}' (just after '{')
const OBJECT_KEY = 3; // '"' (after ',' in an object)
const KEY = 4; // inside a key string
const COLON = 5;
const AFTER = 6; // ',' or the container's closing bracket
const STRING = 7; // inside a string value
const NUMBER = 8;
const LITERAL = 9;
const DONE = 10; // the top-level value is complete: only white space may follow
const FAILED = 11;

const EXPECTED: Record<number, string> = {
  [VALUE]: 'a JSON value',
  [ARRAY_FIRST]: "a JSON value or ']'",
  [OBJECT_FIRST]: `'"' or '}'`,
  [OBJECT_KEY]: `'"'`,
  [COLON]: "':'",
  [AFTER]: "',' or a closing bracket",
  [DONE]: 'the end of the input',
};

const NUMBER_PREFIX = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/;
const NUMBER_WHOLE = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Past this many characters a number in progress is shown only once it is complete. */
const LIVE_NUMBER_MAX = 64;

/**
 * Create an incremental parser for one JSON document.
 *
 * @example
 * const parser = createPartialJsonParser();
 * parser.push('{"city": "Par'); // → { city: 'Par' }
 * parser.push('is", "days": 3}'); // → { city: 'Paris', days: 3 }
 * parser.state; // 'complete'
 */
export function createPartialJsonParser(): PartialJsonParser {
  return new IncrementalJsonParser();
}

/**
 * Parse a whole text that may be a cut-off JSON document.
 *
 * @example
 * parsePartialJson('{"a": 3, "b": 1'); // { state: 'repaired', value: { a: 3, b: 1 } }
 * parsePartialJson('{"a": 3}'); // { state: 'complete', value: { a: 3 } }
 * parsePartialJson('{a}'); // { state: 'failed', value: undefined, error: "Unexpected 'a' …" }
 */
export function parsePartialJson(text: string): PartialJsonResult {
  const parser = new IncrementalJsonParser();
  parser.push(text);
  return parser.finish();
}

class IncrementalJsonParser implements PartialJsonParser {
  #mode = VALUE;
  #root: unknown = undefined;
  #error: string | undefined;
  #pos = 0;
  // The open containers, innermost last, and for objects the key whose value is being read.
  #containers: (Record<string, unknown> | unknown[])[] = [];
  #isArray: boolean[] = [];
  #keys: string[] = [];
  // The string or key being read; the number or literal being read; where it sits in an array.
  readonly #string = new JsonStringReader();
  #text = '';
  #leafIndex = -1;
  #literal = '';

  get value(): unknown {
    return this.#root;
  }

  get state(): PartialJsonState {
    return this.#mode === FAILED ? 'failed' : this.#mode === DONE ? 'complete' : 'repaired';
  }

  get error(): string | undefined {
    return this.#error;
  }

  get length(): number {
    return this.#pos;
  }

  push(delta: string): unknown {
    if (typeof delta !== 'string')
      throw new TypeError(`Expected text to push, got ${delta === null ? 'null' : typeof delta}`);
    if (this.#mode === FAILED) return this.#root;
    const n = delta.length;
    let i = 0;
    while (i < n && this.#mode !== FAILED) {
      const mode = this.#mode;
      if (mode === STRING || mode === KEY) {
        i = this.#readString(delta, i);
        continue;
      }
      const c = delta.charCodeAt(i);
      if (mode === NUMBER) {
        // digits, '-', '+', '.', 'e', 'E'
        if ((c >= 48 && c <= 57) || c === 45 || c === 43 || c === 46 || c === 101 || c === 69) {
          let j = i + 1;
          while (j < n) {
            const d = delta.charCodeAt(j);
            if (!((d >= 48 && d <= 57) || d === 45 || d === 43 || d === 46 || d === 101 || d === 69)) break;
            j++;
          }
          this.#text += delta.slice(i, j);
          i = j;
          continue;
        }
        if (!this.#endNumber(i)) break;
        continue; // the terminating character is read again in the next mode
      }
      if (mode === LITERAL) {
        const want = this.#literal;
        if (c !== want.charCodeAt(this.#text.length)) {
          this.#fail(i, delta[i] as string, `'${want}'`);
          break;
        }
        this.#text += delta[i];
        i++;
        if (this.#text.length === want.length) {
          this.#setLeaf(want === 'true' ? true : want === 'false' ? false : null);
          this.#endValue();
        }
        continue;
      }
      // white space between tokens
      if (c === 32 || c === 10 || c === 13 || c === 9) {
        i++;
        continue;
      }
      this.#token(c, delta, i);
      i++;
    }
    this.#pos += n;
    this.#showOpenScalar();
    return this.#root;
  }

  finish(): PartialJsonResult {
    if (this.#mode === NUMBER && this.#containers.length === 0) this.#endNumber(0);
    const state = this.state;
    if (state === 'failed') return { state, value: undefined, error: this.#error as string };
    return { state, value: this.#root };
  }

  /** A structural character or the first character of a value, in a mode that expects one. */
  #token(c: number, delta: string, i: number): void {
    const mode = this.#mode;
    const top = this.#containers.length - 1;
    switch (mode) {
      case VALUE:
      case ARRAY_FIRST:
        if (c === 93 && mode === ARRAY_FIRST) this.#close();
        else this.#startValue(c, delta, i);
        break;
      case OBJECT_FIRST:
      case OBJECT_KEY:
        if (c === 34) {
          this.#mode = KEY;
          this.#string.start();
        } else if (c === 125 && mode === OBJECT_FIRST) this.#close();
        else this.#fail(i, delta[i] as string, EXPECTED[mode] as string);
        break;
      case COLON:
        if (c === 58) this.#mode = VALUE;
        else this.#fail(i, delta[i] as string, EXPECTED[COLON] as string);
        break;
      case AFTER: {
        const inArray = this.#isArray[top] as boolean;
        if (c === 44) this.#mode = inArray ? VALUE : OBJECT_KEY;
        else if (c === (inArray ? 93 : 125)) this.#close();
        else this.#fail(i, delta[i] as string, inArray ? "',' or ']'" : "',' or '}'");
        break;
      }
      default:
        this.#fail(i, delta[i] as string, EXPECTED[DONE] as string);
    }
  }

  #startValue(c: number, delta: string, i: number): void {
    if (c === 123 || c === 91) {
      const container = c === 91 ? [] : {};
      this.#setLeaf(container);
      this.#leafIndex = -1;
      this.#containers.push(container);
      this.#isArray.push(c === 91);
      this.#keys.push('');
      this.#mode = c === 91 ? ARRAY_FIRST : OBJECT_FIRST;
    } else if (c === 34) {
      this.#mode = STRING;
      this.#string.start();
    } else if (c === 45 || (c >= 48 && c <= 57)) {
      this.#mode = NUMBER;
      this.#text = delta[i] as string;
    } else if (c === 116 || c === 102 || c === 110) {
      this.#mode = LITERAL;
      this.#literal = c === 116 ? 'true' : c === 102 ? 'false' : 'null';
      this.#text = delta[i] as string;
    } else {
      this.#fail(i, delta[i] as string, EXPECTED[this.#mode] as string);
    }
  }

  /** Read string characters from `i` (a key or a value); returns where reading stopped. */
  #readString(s: string, i: number): number {
    const reader = this.#string;
    const next = reader.read(s, i);
    if (reader.state === OPEN) return next;
    if (reader.state === BROKEN) {
      this.#fail(reader.brokenAt, reader.found, reader.expected);
      return next;
    }
    if (this.#mode === KEY) {
      this.#keys[this.#keys.length - 1] = reader.text;
      this.#mode = COLON;
    } else {
      this.#setLeaf(reader.text);
      this.#endValue();
    }
    return next;
  }

  /** The number ended (at `i` of the current delta, or at the end of the input). */
  #endNumber(i: number): boolean {
    if (!NUMBER_WHOLE.test(this.#text)) {
      this.#fail(i, this.#text, 'a JSON number', true);
      return false;
    }
    this.#setLeaf(Number(this.#text));
    this.#endValue();
    return true;
  }

  /** Show the string or number being read, as far as it goes, in its place. */
  #showOpenScalar(): void {
    // The reader's text as it stands, never read here: it ends on no half of a pair, and reading
    // it (its last character, say) would copy the whole string on every push.
    if (this.#mode === STRING) this.#setLeaf(this.#string.text);
    else if (this.#mode === NUMBER && this.#text.length <= LIVE_NUMBER_MAX) {
      const match = NUMBER_PREFIX.exec(this.#text);
      if (match) this.#setLeaf(Number(match[0]));
    }
  }

  /** Put a value in its place: the root, the next slot of an array, or the current key. */
  #setLeaf(value: unknown): void {
    const top = this.#containers.length - 1;
    if (top < 0) {
      this.#root = value;
      return;
    }
    const container = this.#containers[top] as Record<string, unknown> | unknown[];
    if (this.#isArray[top]) {
      const array = container as unknown[];
      if (this.#leafIndex < 0) this.#leafIndex = array.push(value) - 1;
      else array[this.#leafIndex] = value;
      return;
    }
    const key = this.#keys[top] as string;
    if (key === '__proto__') {
      Object.defineProperty(container, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      (container as Record<string, unknown>)[key] = value;
    }
  }

  #endValue(): void {
    this.#leafIndex = -1;
    this.#mode = this.#containers.length === 0 ? DONE : AFTER;
  }

  #close(): void {
    this.#containers.pop();
    this.#isArray.pop();
    this.#keys.pop();
    this.#endValue();
  }

  #fail(i: number, found: string, expected: string, whole = false): void {
    const at = this.#pos + i - (whole ? found.length : 0);
    const what = found.length > 20 ? `${found.slice(0, 20)}…` : found;
    this.#error = `Unexpected ${whole ? 'text' : 'character'} ${JSON.stringify(what)} at position ${Math.max(0, at)}: expected ${expected}`;
    this.#mode = FAILED;
  }
}
