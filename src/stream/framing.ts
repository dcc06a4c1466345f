/**
 * Framing without awaits: text chunks → lines → Server-Sent Events or NDJSON lines, one
 * synchronous call per chunk. The async readers (`decodeSSE`, `decodeNDJSON`) and the stream
 * decoder are thin loops over these, so the parts of one network read are produced
 * together instead of a few microtask hops apart each.
 */

/** One Server-Sent Event. */
export interface SSEEvent {
  /** The `event:` name; absent for the default `message` type. */
  event?: string;
  /** The `data:` lines, joined with `\n`. */
  data: string;
  id?: string;
}

/** Splits text chunks into lines (LF, CRLF or CR), wherever the chunk boundaries fall. */
export class LineSplitter {
  #buffer = '';
  #skipLF = false;

  /** The lines this chunk completes. */
  push(chunk: string, out: string[] = []): string[] {
    let start = 0;
    let i = 0;
    if (this.#skipLF && chunk.charCodeAt(0) === 10) start = i = 1;
    this.#skipLF = false;
    for (; i < chunk.length; i++) {
      const c = chunk.charCodeAt(i);
      if (c !== 10 && c !== 13) continue;
      out.push(this.#buffer + chunk.slice(start, i));
      this.#buffer = '';
      if (c === 13) {
        if (i + 1 < chunk.length) {
          if (chunk.charCodeAt(i + 1) === 10) i++;
        } else {
          this.#skipLF = true;
        }
      }
      start = i + 1;
    }
    if (start < chunk.length) this.#buffer += chunk.slice(start);
    return out;
  }

  /** The input ended: the last line, even without a line break after it. */
  end(out: string[] = []): string[] {
    if (this.#buffer) out.push(this.#buffer);
    this.#buffer = '';
    return out;
  }
}

/**
 * Server-Sent Events from text, following the WHATWG parsing rules: comment lines (`:`) are
 * skipped; `data:` lines join with `\n`; one space after the colon is dropped; an event is
 * dispatched at a blank line, and a last event not followed by one is dispatched at `end`.
 * Events with no data (a bare `event: ping`) are not dispatched.
 */
export class SSEParser {
  readonly #lines = new LineSplitter();
  #data: string[] = [];
  #event: string | undefined;
  #id: string | undefined;
  #first = true;

  /** The events this chunk completes. */
  push(chunk: string, out: SSEEvent[] = []): SSEEvent[] {
    for (const line of this.#lines.push(chunk)) this.#line(line, out);
    return out;
  }

  /** The input ended: its last lines and event. */
  end(out: SSEEvent[] = []): SSEEvent[] {
    for (const line of this.#lines.end()) this.#line(line, out);
    this.#dispatch(out);
    return out;
  }

  #line(line: string, out: SSEEvent[]): void {
    if (this.#first) {
      this.#first = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    if (line === '') {
      this.#dispatch(out);
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    if (field === 'data') this.#data.push(value);
    else if (field === 'event') this.#event = value;
    else if (field === 'id' && !value.includes('\0')) this.#id = value;
    // `retry` and unknown fields are ignored
  }

  #dispatch(out: SSEEvent[]): void {
    if (this.#data.length > 0) {
      const event: SSEEvent = { data: this.#data.length === 1 ? (this.#data[0] as string) : this.#data.join('\n') };
      if (this.#event) event.event = this.#event;
      if (this.#id !== undefined) event.id = this.#id;
      out.push(event);
    }
    this.#data = [];
    this.#event = undefined;
  }
}

/** Newline-delimited JSON from text: each non-blank line (parsing is left to the caller). */
export class NDJSONParser {
  readonly #lines = new LineSplitter();

  push(chunk: string, out: string[] = []): string[] {
    return keepFilled(this.#lines.push(chunk), out);
  }

  end(out: string[] = []): string[] {
    return keepFilled(this.#lines.end(), out);
  }
}

function keepFilled(lines: string[], out: string[]): string[] {
  for (const line of lines) if (line.trim() !== '') out.push(line);
  return out;
}
