import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fromChunks, splitBytes } from '../../test/stream-helpers';
import { decodeStream } from './decode-stream';
import { batchesOf } from './part-batches';
import type { StreamPart } from './stream-part';

const sse = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) =>
  sse({ id: 'c', choices: [{ index: 0, delta: d, finish_reason: finish }] });

/** An OpenAI answer: some text, then `n` calls whose arguments arrive in two pieces. */
function answer(n: number): string {
  let text = delta({ role: 'assistant', content: 'Let me ' }) + delta({ content: 'check.' });
  for (let i = 0; i < n; i++) {
    text += delta({
      tool_calls: [{ index: i, id: `call_${i}`, type: 'function', function: { name: 'f', arguments: '' } }],
    });
    text += delta({ tool_calls: [{ index: i, function: { arguments: `{"i": ${i}, "s": "x` } }] });
    text += delta({ tool_calls: [{ index: i, function: { arguments: 'y"}' } }] });
  }
  return `${text}${delta({}, 'tool_calls')}data: [DONE]\n\n`;
}

const bytesOf = (text: string) => new TextEncoder().encode(text);
const strip = (parts: StreamPart[]) =>
  parts.map((p) => (p.type === 'tool-input-delta' ? { ...p, partialArgs: undefined } : p));

async function byParts(text: string, cuts: number[]) {
  const stream = decodeStream('openai-chat', fromChunks(splitBytes(bytesOf(text), cuts)));
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return { parts, message: stream.message() };
}

async function byBatches(text: string, cuts: number[]) {
  const chunks = splitBytes(bytesOf(text), cuts);
  const stream = decodeStream('openai-chat', fromChunks(chunks));
  const batches: StreamPart[][] = [];
  for await (const batch of stream.batches()) batches.push(batch);
  return { batches, chunks, message: stream.message() };
}

describe('reading a decoded stream in batches', () => {
  it('gives the same parts and message as reading part by part, for any chunking', async () => {
    const text = answer(3);
    const size = bytesOf(text).length;
    await fc.assert(
      fc.asyncProperty(fc.array(fc.integer({ min: 0, max: size }), { maxLength: 30 }), async (cuts) => {
        const one = await byParts(text, cuts);
        const many = await byBatches(text, cuts);
        expect(many.batches.every((b) => b.length > 0)).toBe(true);
        expect(strip(many.batches.flat())).toEqual(strip(one.parts));
        expect(many.message).toEqual(one.message);
      }),
      { numRuns: 40 },
    );
  });

  it('hands over the parts of one chunk together: every call that closes in it', async () => {
    const { batches } = await byBatches(answer(3), []);
    // One chunk of input: its parts in one batch, then the decoder's flush (nothing left here).
    expect(batches).toHaveLength(1);
    const calls = (batches[0] as StreamPart[]).filter((p) => p.type === 'tool-call');
    expect(calls.map((p) => p.type === 'tool-call' && p.toolCall.args)).toEqual([
      { i: 0, s: 'xy' },
      { i: 1, s: 'xy' },
      { i: 2, s: 'xy' },
    ]);
  });

  it('cuts batches where the chunks are cut', async () => {
    const text = answer(2);
    const firstCall = text.indexOf('call_1');
    const { batches } = await byBatches(text, [firstCall]);
    expect(batches).toHaveLength(2);
    const callsIn = (b: StreamPart[]) => b.filter((p) => p.type === 'tool-call').length;
    expect(batches.map(callsIn)).toEqual([1, 1]);
  });

  it('read part by part, shows each delta with the arguments as of that delta', async () => {
    const stream = decodeStream('openai-chat', fromChunks([bytesOf(answer(1))]));
    const seen: unknown[] = [];
    for await (const part of stream) if (part.type === 'tool-input-delta') seen.push(structuredClone(part.partialArgs));
    expect(seen).toEqual([
      { i: 0, s: 'x' },
      { i: 0, s: 'xy' },
    ]);
  });

  it('stopping early cancels the source, in either reading', async () => {
    for (const mode of ['parts', 'batches'] as const) {
      let cancelled = false;
      const body = new ReadableStream<Uint8Array>({
        start: (c) => c.enqueue(bytesOf(delta({ content: 'hi' }))),
        cancel: () => {
          cancelled = true;
        },
      });
      const stream = decodeStream('openai-chat', body);
      if (mode === 'parts') for await (const _ of stream) break;
      else for await (const _ of stream.batches()) break;
      expect(cancelled, mode).toBe(true);
    }
  });

  it('stops reading at [DONE] and ignores what follows it', async () => {
    let cancelled = false;
    const body = new ReadableStream<Uint8Array>({
      start: (c) => c.enqueue(bytesOf(`${delta({ content: 'a' }, 'stop')}data: [DONE]\n\n${delta({ content: 'b' })}`)),
      cancel: () => {
        cancelled = true;
      },
    });
    const stream = decodeStream('openai-chat', body);
    const batches: StreamPart[][] = [];
    for await (const batch of stream.batches()) batches.push(batch);
    expect(cancelled).toBe(true);
    expect(stream.message().content).toBe('a');
  });

  describe('a stream whose input is all there', () => {
    afterEach(() => {
      vi.restoreAllMocks();
    });

    /** Read `text` as one chunk while the clock (performance.now) runs as `tick` says; did the event loop get a turn before the end? */
    async function readPaced(mode: 'parts' | 'batches', tick: (clock: number) => number) {
      let clock = 0;
      vi.spyOn(performance, 'now').mockImplementation(() => {
        clock = tick(clock);
        return clock;
      });
      // The page's other work: a task at every turn of the event loop, from before reading begins.
      let turns = 0;
      let reading = true;
      const turn = () => {
        turns++;
        if (reading) setImmediate(turn);
      };
      setImmediate(turn);
      const stream = decodeStream('openai-chat', fromChunks([bytesOf(answer(40))]));
      const batches: StreamPart[][] = [];
      if (mode === 'parts') for await (const part of stream) batches.push([part]);
      else for await (const batch of stream.batches()) batches.push(batch);
      reading = false;
      const ranBeforeTheEnd = turns > 0;
      vi.restoreAllMocks();
      return { batches, ranBeforeTheEnd, message: stream.message() };
    }

    it('lets the page run once its reading has worked a slice, and gives the same parts', async () => {
      const expected = await byParts(answer(40), []);
      for (const mode of ['parts', 'batches'] as const) {
        // Every look at the clock finds it a millisecond on: reading takes its time.
        const paced = await readPaced(mode, (clock) => clock + 1);
        expect(paced.ranBeforeTheEnd, mode).toBe(true);
        expect(strip(paced.batches.flat())).toEqual(strip(expected.parts));
        expect(paced.message).toEqual(expected.message);
      }
    });

    it('hands over a chunk that takes more than a slice to decode in several batches', async () => {
      const paced = await readPaced('batches', (clock) => clock + 1);
      expect(paced.batches.length).toBeGreaterThan(1);
      expect(paced.batches.every((b) => b.length > 0)).toBe(true);
    });

    it('does not stop to yield while the clock stands still', async () => {
      const paced = await readPaced('batches', (clock) => clock);
      expect(paced.batches).toHaveLength(1);
      expect(paced.ranBeforeTheEnd).toBe(false);
    });
  });

  it('batchesOf gives a stream without batches of its own one part per batch', async () => {
    async function* parts(): AsyncGenerator<StreamPart> {
      yield { type: 'text-delta', delta: 'a' };
      yield { type: 'text-delta', delta: 'b' };
    }
    const out: StreamPart[][] = [];
    for await (const batch of batchesOf(parts())) out.push(batch);
    expect(out).toEqual([[{ type: 'text-delta', delta: 'a' }], [{ type: 'text-delta', delta: 'b' }]]);
  });
});
