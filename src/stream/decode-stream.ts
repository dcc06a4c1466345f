import type { AIMessage } from '../messages/types';
import { createStreamDecoder } from './create-stream-decoder';
import { decodeNDJSON, decodeSSE } from './decode-sse';
import type { StreamDecoder } from './stream-decoder';
import type { StreamFormat, StreamPart } from './stream-part';
import type { ByteSource } from './text-chunks';

export interface DecodeStreamOptions {
  /** How events are framed. Default: `'ndjson'` for Ollama, `'sse'` for the others. */
  framing?: 'sse' | 'ndjson';
  signal?: AbortSignal;
}

/** The parts of a stream, and the decoder behind them for the final message. */
export interface DecodedStream extends AsyncIterable<StreamPart> {
  readonly decoder: StreamDecoder;
  /** The final message (call after the iteration ends; it flushes the decoder if needed). */
  message(): AIMessage;
}

/**
 * Bytes from a provider → `StreamPart`s: SSE or NDJSON framing, JSON per event (a line that is
 * not JSON becomes an `error` part and is skipped), then the format's decoder. Stopping the
 * iteration early cancels the source.
 *
 * @example
 * const parts = decodeStream('openai-chat', response.body);
 * for await (const part of parts) render(part);
 * const ai = parts.message();
 */
export function decodeStream(
  format: StreamFormat,
  source: ByteSource,
  options: DecodeStreamOptions = {},
): DecodedStream {
  const framing = options.framing ?? (format === 'ollama' ? 'ndjson' : 'sse');
  return decodeWith(createStreamDecoder(format), source, { ...options, framing });
}

/**
 * `decodeStream` with a decoder of your choosing (a model client imports only its format's
 * decoder, so a bundle carries no other). Framing: `'sse'` unless told.
 */
export function decodeWith(
  decoder: StreamDecoder,
  source: ByteSource,
  options: DecodeStreamOptions = {},
): DecodedStream {
  async function* run(): AsyncGenerator<StreamPart> {
    const payloads =
      (options.framing ?? 'sse') === 'sse'
        ? mapData(decodeSSE(source, withSignal(options.signal)))
        : decodeNDJSON(source, withSignal(options.signal));
    for await (const text of payloads) {
      if (text === '[DONE]') break;
      let event: unknown;
      try {
        event = JSON.parse(text);
      } catch (error) {
        yield {
          type: 'error',
          code: 'malformed-event',
          message: `Skipped a line that is not JSON (${error instanceof Error ? error.message : String(error)}).`,
          raw: text,
        };
        continue;
      }
      yield* decoder.push(event);
    }
    yield* decoder.flush();
  }
  const iterable = run();
  return {
    decoder,
    message: () => decoder.finish(),
    [Symbol.asyncIterator]: () => iterable,
  };
}

async function* mapData(events: AsyncIterable<{ data: string }>): AsyncGenerator<string> {
  for await (const e of events) yield e.data;
}

function withSignal(signal: AbortSignal | undefined): { signal?: AbortSignal } {
  return signal ? { signal } : {};
}
