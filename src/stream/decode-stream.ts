import type { AIMessage } from '../messages/types';
import { createStreamDecoder } from './create-stream-decoder';
import { NDJSONParser, SSEParser } from './framing';
import { type BatchedParts, type UnitSource, unitStream } from './part-batches';
import type { StreamDecoder } from './stream-decoder';
import type { StreamFormat, StreamPart } from './stream-part';
import { type ByteSource, textChunks } from './text-chunks';

export interface DecodeStreamOptions {
  /** How events are framed. Default: `'ndjson'` for Ollama, `'sse'` for the others. */
  framing?: 'sse' | 'ndjson';
  signal?: AbortSignal;
}

/** The parts of a stream, and the decoder behind them for the final message. */
export interface DecodedStream extends BatchedParts<StreamPart> {
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
  return unitStream(new Decoding(decoder, source, options), { decoder, message: () => decoder.finish() });
}

/** Bytes → payloads (SSE data or NDJSON lines) → each payload's parts, one payload at a time. */
class Decoding implements UnitSource<StreamPart> {
  readonly #decoder: StreamDecoder;
  readonly #chunks: AsyncGenerator<string>;
  readonly #sse: SSEParser | undefined;
  readonly #ndjson: NDJSONParser | undefined;
  #payloads: string[] = [];
  #head = 0;
  /** The input ended (or `[DONE]` came): what is left is the decoder's flush. */
  #ended = false;
  #flushed = false;

  constructor(decoder: StreamDecoder, source: ByteSource, options: DecodeStreamOptions) {
    this.#decoder = decoder;
    this.#chunks = textChunks(source, options.signal);
    if ((options.framing ?? 'sse') === 'sse') this.#sse = new SSEParser();
    else this.#ndjson = new NDJSONParser();
  }

  take(): StreamPart[] | undefined {
    if (this.#head < this.#payloads.length) {
      const text = this.#payloads[this.#head++] as string;
      if (text !== '[DONE]') return this.#decode(text);
      // The end marker: what follows it is ignored, and reading stops (the source is cancelled).
      this.#payloads = [];
      this.#head = 0;
      this.#ended = true;
    }
    if (!this.#ended || this.#flushed) return undefined;
    this.#flushed = true;
    return this.#decoder.flush();
  }

  async fill(): Promise<boolean> {
    if (this.#ended) {
      await this.close();
      return !this.#flushed;
    }
    this.#payloads = this.#payloads.slice(this.#head);
    this.#head = 0;
    const step = await this.#chunks.next();
    if (step.done) {
      this.#ended = true;
      this.#frame(undefined);
    } else this.#frame(step.value);
    return true;
  }

  async close(): Promise<void> {
    await this.#chunks.return(undefined);
  }

  /** A chunk of text (or, at the end, undefined) → the payloads it completes. */
  #frame(chunk: string | undefined): void {
    const out = this.#payloads;
    if (this.#sse) for (const e of chunk === undefined ? this.#sse.end() : this.#sse.push(chunk)) out.push(e.data);
    else if (chunk === undefined) this.#ndjson?.end(out);
    else this.#ndjson?.push(chunk, out);
  }

  /** One payload's parts; one that is not JSON becomes an `error` part and is skipped. */
  #decode(text: string): StreamPart[] {
    let event: unknown;
    try {
      event = JSON.parse(text);
    } catch (error) {
      return [
        {
          type: 'error',
          code: 'malformed-event',
          message: `Skipped a line that is not JSON (${error instanceof Error ? error.message : String(error)}).`,
          raw: text,
        },
      ];
    }
    return this.#decoder.push(event);
  }
}
