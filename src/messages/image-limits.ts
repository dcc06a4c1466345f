/**
 * What each provider takes of an image, and whether a message holds one that is larger: small
 * and pure, so a model client can ask before it loads the scaler (fit-images.ts).
 */
import { imageSize, readMediaData } from './media-data';
import type { ImagePart, Message } from './types';

/** What a provider takes of one image: its size as sent (bytes of base64) and its longest side. */
export interface ImageLimits {
  maxBase64Bytes: number;
  maxSide: number;
}

const MB = 1024 * 1024;

/**
 * Per provider format: Anthropic refuses an image over 5 MB of base64 or 8,000 px a side;
 * OpenAI takes 20 MB an image (50 MB a request); Gemini 20 MB a request of inline data (15 MB
 * an image leaves room for the rest). Ollama
 * states none.
 */
export const IMAGE_LIMITS: Record<string, ImageLimits | undefined> = {
  anthropic: { maxBase64Bytes: 5 * MB, maxSide: 8000 },
  'openai-chat': { maxBase64Bytes: 20 * MB, maxSide: 16_000 },
  'openai-responses': { maxBase64Bytes: 20 * MB, maxSide: 16_000 },
  gemini: { maxBase64Bytes: 15 * MB, maxSide: 16_000 },
};

/** Whether a message holds an image over the limits. */
export function tooLarge(m: Message, limits: ImageLimits): boolean {
  if ((m.role !== 'user' && m.role !== 'tool') || typeof m.content === 'string') return false;
  return m.content.some((p) => p.type === 'image' && over(p, limits));
}

/** Whether an image part is over the limits (an image at a URL never is: the provider fetches it). */
export function over(part: ImagePart, limits: ImageLimits): boolean {
  const read = readMediaData(part.data, part.mediaType);
  if (read.kind === 'url') return false;
  const size = imageSize(read.base64);
  return (
    read.base64.length > limits.maxBase64Bytes ||
    (size !== undefined && Math.max(size.width, size.height) > limits.maxSide)
  );
}
