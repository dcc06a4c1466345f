import { AnthropicDecoder } from './decoders/anthropic-decoder';
import { GeminiDecoder } from './decoders/gemini-decoder';
import { OllamaDecoder } from './decoders/ollama-decoder';
import { OpenAIChatDecoder } from './decoders/openai-chat-decoder';
import { OpenAIResponsesDecoder } from './decoders/openai-responses-decoder';
import type { StreamDecoder } from './stream-decoder';
import type { StreamFormat } from './stream-part';

const decoders: Record<StreamFormat, new () => StreamDecoder> = {
  'openai-chat': OpenAIChatDecoder,
  'openai-responses': OpenAIResponsesDecoder,
  anthropic: AnthropicDecoder,
  gemini: GeminiDecoder,
  ollama: OllamaDecoder,
};

/** The formats `createStreamDecoder` knows. */
export const STREAM_FORMATS = Object.keys(decoders) as StreamFormat[];

/**
 * A decoder for one message of a provider's stream.
 *
 * @example
 * const decoder = createStreamDecoder('anthropic');
 * for await (const event of events) for (const part of decoder.push(event)) render(part);
 * const ai = decoder.finish();
 */
export function createStreamDecoder(format: StreamFormat): StreamDecoder {
  if (!Object.hasOwn(decoders, format)) {
    throw new TypeError(`Unknown stream format ${JSON.stringify(format)}. Known formats: ${STREAM_FORMATS.join(', ')}`);
  }
  return new decoders[format]();
}
