import { type DecodeStreamOptions, decodeStream } from '../src/stream/decode-stream';
import type { StreamFormat, StreamPart } from '../src/stream/stream-part';

/** Split bytes at the given positions (clamped, deduplicated). */
export function splitBytes(bytes: Uint8Array, positions: number[]): Uint8Array[] {
  const cuts = [...new Set(positions.map((p) => Math.max(0, Math.min(bytes.length, p))))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let from = 0;
  for (const cut of [...cuts, bytes.length]) {
    if (cut > from) out.push(bytes.slice(from, cut));
    from = cut;
  }
  return out;
}

export async function* fromChunks<T>(chunks: Iterable<T>): AsyncGenerator<T> {
  for (const chunk of chunks) yield chunk;
}

/** Lines of provider JSON (a `.chunks.txt` fixture) framed as SSE text. */
export function asSSE(jsonLines: string): string {
  return jsonLines
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `data: ${line}\n\n`)
    .join('');
}

/**
 * Decode `text` (split into byte chunks at `positions`) and collect the parts, each snapshotted
 * when it was yielded (partial arguments are live objects).
 */
export async function decodeAll(
  format: StreamFormat,
  text: string,
  positions: number[] = [],
  options: DecodeStreamOptions = {},
) {
  const bytes = new TextEncoder().encode(text);
  const stream = decodeStream(format, fromChunks(splitBytes(bytes, positions)), options);
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(structuredClone(part));
  return { parts, message: stream.message() };
}

export function partsOfType<T extends StreamPart['type']>(
  parts: StreamPart[],
  type: T,
): Extract<StreamPart, { type: T }>[] {
  return parts.filter((p): p is Extract<StreamPart, { type: T }> => p.type === type);
}
