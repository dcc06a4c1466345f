import { NDJSONParser, type SSEEvent, SSEParser } from './framing';
import { type ByteSource, textChunks } from './text-chunks';

export type { SSEEvent } from './framing';

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
  const parser = new SSEParser();
  for await (const chunk of textChunks(source, options.signal)) yield* parser.push(chunk);
  yield* parser.end();
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
  const parser = new NDJSONParser();
  for await (const chunk of textChunks(source, options.signal)) yield* parser.push(chunk);
  yield* parser.end();
}
