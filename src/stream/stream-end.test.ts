// A streamed answer that ends normally is not cancelled: after `[DONE]` the rest of the body is
// read to its end (a body cancelled while the server closed it showed every streamed answer as a
// failed request in the browser's network log), and only one that does not end in time is cut.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openAICompatible } from '../models/openai-compatible';
import { decodeStream, END_GRACE_MS } from './decode-stream';

const encoder = new TextEncoder();
const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;
const last = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

/** A body that sends `text`, then ends (`close()`) or is cancelled (`cancelled`). */
function body(text: string) {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const seen = { cancelled: false, closed: false };
  const stream = new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
      c.enqueue(encoder.encode(text));
    },
    cancel() {
      seen.cancelled = true;
    },
  });
  return {
    stream,
    seen,
    close() {
      seen.closed = true;
      controller.close();
    },
  };
}

async function textOf(parts: AsyncIterable<{ type: string; delta?: string }>) {
  let text = '';
  for await (const part of parts) if (part.type === 'text-delta') text += part.delta;
  return text;
}

afterEach(() => vi.useRealTimers());

describe('the end of a streamed answer', () => {
  it('is read to the end of its body after [DONE], not cancelled', async () => {
    const source = body(chunk('Hel') + chunk('lo') + last);
    const parts = decodeStream('openai-chat', source.stream);
    expect(await textOf(parts)).toBe('Hello');
    await new Promise((resolve) => setTimeout(resolve, 10));
    source.close(); // the server closes the response after the marker
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(source.seen).toEqual({ cancelled: false, closed: true });
  });

  it('is cancelled when the body does not end within the grace after [DONE]', async () => {
    vi.useFakeTimers();
    const source = body(chunk('Hi') + last);
    const parts = decodeStream('openai-chat', source.stream);
    expect(await textOf(parts)).toBe('Hi');
    await vi.advanceTimersByTimeAsync(END_GRACE_MS - 1);
    expect(source.seen.cancelled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(source.seen.cancelled).toBe(true);
  });

  it('is cancelled at once when the reader stops before the end', async () => {
    const source = body(chunk('a') + chunk('b'));
    for await (const part of decodeStream('openai-chat', source.stream)) if (part.type === 'text-delta') break;
    expect(source.seen.cancelled).toBe(true);
  });

  it("leaves a model client's request to finish when its answer was read to the end", async () => {
    let signal: AbortSignal | undefined;
    const source = body(chunk('Hello') + last);
    const model = openAICompatible({
      baseURL: 'http://model.invalid/v1',
      model: 'm',
      maxRetries: 0,
      fetch: async (_url, init) => {
        signal = init?.signal ?? undefined;
        return new Response(source.stream, { headers: { 'content-type': 'text/event-stream' } });
      },
    });
    expect(await textOf(model.stream({ messages: [{ role: 'user', content: 'hi' }] }))).toBe('Hello');
    expect(signal?.aborted).toBe(false);
    source.close();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(source.seen.cancelled).toBe(false);
  });
});
