import { type ByteSource, lines, textChunks } from './text-chunks';

/** One Server-Sent Event. */
export interface SSEEvent {
  /** The `event:` name; absent for the default `message` type. */
  event?: string;
  /** The `data:` lines, joined with `\n`. */
  data: string;
  id?: string;
}

/**
 * Server-Sent Events from bytes, following the WHATWG parsing rules: chunk boundaries may fall
 * anywhere (inside a UTF-8 character, a `data:` line or a CRLF); comment lines (`:`) are skipped;
 * `data:` lines join with `\n`; one space after the colon is dropped; an event is dispatched at a
 * blank line, and a last event not followed by one is dispatched too. Events with no data (a bare
 * `event: ping`) are not dispatched. `[DONE]` is passed through as data: `decodeStream` stops at it.
 *
 * @example for await (const { data } of decodeSSE(response.body)) console.log(JSON.parse(data))
 */
export async function* decodeSSE(source: ByteSource, options: { signal?: AbortSignal } = {}): AsyncGenerator<SSEEvent> {
  let data: string[] = [];
  let event: string | undefined;
  let id: string | undefined;
  let first = true;
  const dispatch = (): SSEEvent | undefined => {
    const out: SSEEvent | undefined = data.length > 0 ? { data: data.join('\n') } : undefined;
    if (out && event) out.event = event;
    if (out && id !== undefined) out.id = id;
    data = [];
    event = undefined;
    return out;
  };
  for await (let line of lines(textChunks(source, options.signal))) {
    if (first) {
      first = false;
      if (line.charCodeAt(0) === 0xfeff) line = line.slice(1);
    }
    if (line === '') {
      const out = dispatch();
      if (out) yield out;
      continue;
    }
    if (line[0] === ':') continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value[0] === ' ') value = value.slice(1);
    if (field === 'data') data.push(value);
    else if (field === 'event') event = value;
    else if (field === 'id' && !value.includes('\0')) id = value;
    // `retry` and unknown fields are ignored
  }
  const out = dispatch();
  if (out) yield out;
}

/**
 * Newline-delimited JSON from bytes: each non-blank line, as text (parsing is left to the caller,
 * so that a bad line can be reported and skipped).
 *
 * @example for await (const line of decodeNDJSON(response.body)) handle(JSON.parse(line))
 */
export async function* decodeNDJSON(
  source: ByteSource,
  options: { signal?: AbortSignal } = {},
): AsyncGenerator<string> {
  for await (const line of lines(textChunks(source, options.signal))) {
    if (line.trim() !== '') yield line;
  }
}
