import { describeValue } from '../errors/moat-error';

/** Bytes or text as they arrive: a fetch body, or any async iterable of chunks. */
export type ByteSource = ReadableStream<Uint8Array> | AsyncIterable<Uint8Array | string>;

/**
 * The source as text chunks, UTF-8 decoded across chunk boundaries (a character split between
 * two chunks comes out whole). Stopping early (`break`, `return`) cancels the source; an aborted
 * `signal` cancels it and rejects with `signal.reason`.
 */
export async function* textChunks(source: ByteSource, signal?: AbortSignal): AsyncGenerator<string> {
  if (
    !isReadableStream(source) &&
    typeof (source as Partial<AsyncIterable<unknown>>)?.[Symbol.asyncIterator] !== 'function'
  )
    throw new TypeError(
      `Expected a ReadableStream or an async iterable of text or bytes (a fetch body, say), got ${describeValue(source)}`,
    );
  const decoder = new TextDecoder('utf-8');
  signal?.throwIfAborted();
  if (isReadableStream(source)) {
    const reader = source.getReader();
    const onAbort = () => void reader.cancel(signal?.reason).catch(() => {});
    signal?.addEventListener('abort', onAbort, { once: true });
    let done = false;
    try {
      while (true) {
        const result = await reader.read();
        signal?.throwIfAborted();
        if (result.done) break;
        const text = decoder.decode(result.value, { stream: true });
        if (text) yield text;
      }
      done = true;
      const rest = decoder.decode();
      if (rest) yield rest;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!done) await reader.cancel(signal?.reason).catch(() => {});
      reader.releaseLock();
    }
    return;
  }
  const iterator = source[Symbol.asyncIterator]();
  let done = false;
  try {
    while (true) {
      const result = await iterator.next();
      signal?.throwIfAborted();
      if (result.done) break;
      const chunk = result.value;
      const text = typeof chunk === 'string' ? flushInto(decoder, chunk) : decoder.decode(chunk, { stream: true });
      if (text) yield text;
    }
    done = true;
    const rest = decoder.decode();
    if (rest) yield rest;
  } finally {
    if (!done) await iterator.return?.();
  }
}

/** A string chunk after byte chunks: whatever bytes were pending come first. */
function flushInto(decoder: TextDecoder, text: string): string {
  return decoder.decode() + text;
}

function isReadableStream(source: ByteSource): source is ReadableStream<Uint8Array> {
  return typeof (source as ReadableStream | null)?.getReader === 'function';
}
