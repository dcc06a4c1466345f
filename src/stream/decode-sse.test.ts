import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeAll, fromChunks, splitBytes } from '../../test/stream-helpers';
import { decodeNDJSON, decodeSSE, type SSEEvent } from './decode-sse';
import { decodeStream } from './decode-stream';

async function collect<T>(iterable: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of iterable) out.push(item);
  return out;
}

const sse = (text: string, cuts: number[] = []) =>
  collect(decodeSSE(fromChunks(splitBytes(new TextEncoder().encode(text), cuts))));

describe('decodeSSE', () => {
  it('follows the SSE rules: comments, event names, ids, multi-line data, one optional space', async () => {
    const text = [
      ': a comment',
      'event: ping',
      'data: {"type": "ping"}',
      '',
      'data:no space',
      'data:  two spaces',
      'id: 7',
      '',
      'event: empty',
      '',
      'retry: 100',
      'data',
      '',
      'data: last, without a blank line',
    ].join('\n');
    const events: SSEEvent[] = [
      { event: 'ping', data: '{"type": "ping"}' },
      { data: 'no space\n two spaces', id: '7' },
      { data: '', id: '7' },
      { data: 'last, without a blank line', id: '7' },
    ];
    // A bare `data` line is one empty data line: an event with empty data, as the spec says.
    expect(await sse(text)).toEqual(events);
  });

  it('accepts CRLF, CR and a byte-order mark', async () => {
    expect(await sse('\uFEFFdata: a\r\n\r\ndata: b\r\rdata: c\n\n')).toEqual([
      { data: 'a' },
      { data: 'b' },
      { data: 'c' },
    ]);
  });

  it('gives the same events for every split of the bytes, inside UTF-8 characters and CRLFs too', async () => {
    const text = 'event: m\r\ndata: {"t": "héllo 😀 世界"}\r\n\r\n: c\r\ndata: [DONE]\r\n\r\n';
    const whole = await sse(text);
    expect(whole).toEqual([{ event: 'm', data: '{"t": "héllo 😀 世界"}' }, { data: '[DONE]' }]);
    const size = new TextEncoder().encode(text).length;
    for (let i = 0; i <= size; i++) expect(await sse(text, [i])).toEqual(whole);
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: size })), async (cuts) => {
        expect(await sse(text, cuts)).toEqual(whole);
      }),
      { numRuns: 100 },
    );
  });

  it('refuses a source that is not a stream of text or bytes, with a TypeError saying what it takes', async () => {
    await expect(collect(decodeSSE(42 as never))).rejects.toThrow(
      'Expected a ReadableStream or an async iterable of text or bytes (a fetch body, say), got `42` (number)',
    );
    await expect(collect(decodeStream('anthropic', null as never))).rejects.toThrow(/a ReadableStream or an async/);
  });

  it('reads string chunks and a ReadableStream alike', async () => {
    expect(await collect(decodeSSE(fromChunks(['da', 'ta: x\n', '\n'])))).toEqual([{ data: 'x' }]);
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: y\n\n'));
        controller.close();
      },
    });
    expect(await collect(decodeSSE(body))).toEqual([{ data: 'y' }]);
  });
});

describe('decodeNDJSON', () => {
  it('yields each non-blank line, wherever the chunks split', async () => {
    const lines = await collect(decodeNDJSON(fromChunks(['{"a":', '1}\n\n{"b"', ':2}\r\n', '{"c":3}'])));
    expect(lines).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });
});

describe('decodeStream', () => {
  const body = (text: string) => fromChunks([new TextEncoder().encode(text)]);

  it('skips lines that are not JSON with a diagnostic, and stops at [DONE]', async () => {
    const text = [
      'data: {"choices":[{"index":0,"delta":{"content":"Hi"}}]}',
      'data: {not json',
      'data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}',
      'data: [DONE]',
      'data: {"choices":[{"index":0,"delta":{"content":"after done"}}]}',
      '',
    ].join('\n\n');
    const { parts, message } = await decodeAll('openai-chat', text);
    expect(parts.map((p) => p.type)).toEqual(['text-delta', 'error', 'finish']);
    expect(parts[1]).toMatchObject({ code: 'malformed-event', raw: '{not json' });
    expect(message.content).toBe('Hi');
  });

  it('reads Ollama as NDJSON by default', async () => {
    const stream = decodeStream(
      'ollama',
      body('{"message":{"content":"a"},"done":false}\n{"message":{"content":"b"},"done":true,"done_reason":"stop"}\n'),
    );
    const types = [];
    for await (const part of stream) types.push(part.type);
    expect(types).toEqual(['text-delta', 'text-delta', 'finish']);
    expect(stream.message()).toMatchObject({ content: 'ab', stopReason: 'end' });
  });

  it('cancels the source when the consumer stops early', async () => {
    let cancelled: unknown = 'not cancelled';
    let pulls = 0;
    const source = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulls++;
        controller.enqueue(
          new TextEncoder().encode(`data: {"choices":[{"index":0,"delta":{"content":"${pulls}"}}]}\n\n`),
        );
      },
      cancel(reason) {
        cancelled = reason;
      },
    });
    for await (const part of decodeStream('openai-chat', source)) {
      expect(part.type).toBe('text-delta');
      break;
    }
    expect(cancelled).toBeUndefined();
    expect(pulls).toBeLessThan(5);
  });

  it('stops an async-iterable source early too', async () => {
    let finished = false;
    async function* endless() {
      try {
        for (let i = 0; ; i++) yield `data: {"choices":[{"index":0,"delta":{"content":"${i}"}}]}\n\n`;
      } finally {
        finished = true;
      }
    }
    for await (const _ of decodeStream('openai-chat', endless())) break;
    expect(finished).toBe(true);
  });

  it('rejects with the signal reason when aborted, cancelling the source', async () => {
    const controller = new AbortController();
    let cancelled = false;
    const source = new ReadableStream<Uint8Array>({
      pull(c) {
        c.enqueue(new TextEncoder().encode('data: {"choices":[{"index":0,"delta":{"content":"x"}}]}\n\n'));
      },
      cancel() {
        cancelled = true;
      },
    });
    const reason = new Error('user left');
    const consume = async () => {
      let n = 0;
      for await (const _ of decodeStream('openai-chat', source, { signal: controller.signal })) {
        if (++n === 3) controller.abort(reason);
      }
    };
    await expect(consume()).rejects.toBe(reason);
    expect(cancelled).toBe(true);
  });
});
