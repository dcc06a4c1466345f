/**
 * Structured output as it streams: a 100 KB answer (and a 1 MB one) arriving in 8–32-character
 * deltas, shown as a partial object after every delta. Ours: `agent.stream(…, { output })` over
 * a model that yields the deltas (the agent loop, the linear partial parser, an output-delta per
 * delta, the zod check of the final object). The AI SDK: `streamText` with `Output.object` over
 * a model that yields the same deltas, its `partialOutputStream` read to the end and its checked
 * `output` awaited. Same zod schema, same page, samples taken alternately. Linearity: ours at
 * 1 MB timed alternately with ten 100 KB answers in a row (the same bytes, the same exposure to
 * whatever else the machine does).
 */
import { Output, streamText } from 'ai';
import { z } from 'zod';
import { createAgent } from '../../src/agent/agent';
import { aiMessage } from '../../src/messages/constructors';
import type { ChatModel } from '../../src/models/types';
import type { StreamPart } from '../../src/stream/stream-part';
import type { BenchCase } from '../case';
import { argumentsText, chunksOf } from '../json-data';

/** The schema of the bench document (`argumentsText`). */
const Doc = z.object({
  title: z.string(),
  days: z.number().int(),
  budget: z.object({ amount: z.number(), currency: z.string() }),
  items: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      tags: z.array(z.string()),
      score: z.number(),
      open: z.boolean(),
      note: z.string(),
    }),
  ),
});

const OUTPUT_SIZES = { '100kb': 100_000, '1mb': 1_000_000 } as const;

function deltasOf(bytes: number): string[] {
  const deltas = chunksOf(argumentsText(bytes));
  if (!Doc.safeParse(JSON.parse(deltas.join(''))).success) throw new Error('the bench document does not fit Doc');
  return deltas;
}

/** A chat model whose answer is these deltas of text, one part each. */
function deltaModel(deltas: string[]): ChatModel {
  const content = deltas.join('');
  return {
    provider: 'bench',
    modelId: 'deltas',
    stream() {
      async function* parts(): AsyncGenerator<StreamPart> {
        for (const delta of deltas) yield { type: 'text-delta', delta };
      }
      return { [Symbol.asyncIterator]: () => parts(), message: () => aiMessage({ content, stopReason: 'end' }) };
    },
  };
}

type AISDKModel = Exclude<Parameters<typeof streamText>[0]['model'], string>;

/** The same deltas as an AI SDK language model (specification v3) streams them. */
function aiSDKModel(deltas: string[]): AISDKModel {
  const usage = {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: deltas.length, text: deltas.length, reasoning: 0 },
  };
  return {
    specificationVersion: 'v3',
    provider: 'bench',
    modelId: 'deltas',
    supportedUrls: {},
    doGenerate: () => Promise.reject(new Error('the bench streams')),
    doStream: async () => ({
      stream: new ReadableStream({
        start(controller) {
          controller.enqueue({ type: 'stream-start', warnings: [] });
          controller.enqueue({ type: 'text-start', id: 't' });
          for (const delta of deltas) controller.enqueue({ type: 'text-delta', id: 't', delta });
          controller.enqueue({ type: 'text-end', id: 't' });
          controller.enqueue({ type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage });
          controller.close();
        },
      }),
    }),
  };
}

/**
 * One run of ours: a fresh agent (its thread memory holds only what the sample made) streams the
 * answer to its finish; an output-delta per delta and the checked output are required.
 */
async function runOurs(deltas: string[]): Promise<void> {
  const agent = createAgent({ model: deltaModel(deltas), output: Doc, maxSteps: 1 });
  let partials = 0;
  let items = -1;
  for await (const event of agent.stream('go')) {
    if (event.type === 'output-delta') partials++;
    if (event.type === 'finish') items = event.output?.items.length ?? -1;
    if (event.type === 'error') throw event.error;
  }
  if (partials < deltas.length * 0.9 || items < 1) throw new Error(`ours: ${partials} partials, ${items} items`);
}

const OURS =
  'agent.stream(…, { output: zod schema }) over a model yielding the JSON answer in 8–32-character deltas: an output-delta (the partial object) per delta, then the zod-checked output on finish';

/** Ours, `runs` answers of `size` in a row per sample (warmed up in setup, untimed). */
function ours(name: string, size: keyof typeof OUTPUT_SIZES, runs: number, fields: Partial<BenchCase>): BenchCase {
  return {
    name,
    unit: 'ms',
    ...fields,
    async setup() {
      const deltas = deltasOf(OUTPUT_SIZES[size]);
      const sample = async () => {
        const start = performance.now();
        for (let i = 0; i < runs; i++) await runOurs(deltas);
        return performance.now() - start;
      };
      // A warm-up pair beside the AI SDK would cost one of its runs of seconds each: warmed here.
      for (let i = 0; i < 3; i++) await sample();
      return { sample };
    },
  };
}

export const outputCases: BenchCase[] = [
  {
    name: 'output/ai-sdk-partial-100kb',
    unit: 'ms',
    // Its own row is one sample (each takes seconds: the whole text is re-parsed per delta); the
    // comparison uses the five taken beside ours (output/partial-100kb's anchor median).
    repeat: 1,
    warmup: 0,
    // Each run leaves hundreds of MB of garbage (a parsed copy per delta): two idle seconds let
    // the collector take it before the next sample, ours or its own, starts.
    pauseMs: 2000,
    note: "the AI SDK on the same deltas: streamText({ output: Output.object({ schema }) }) over a v3 model yielding them, partialOutputStream read to the end (a partial object per delta: the whole text re-parsed each time), the checked output awaited. This row: one sample; output/partial-100kb's anchor median is the five taken beside ours",
    setup() {
      const deltas = deltasOf(OUTPUT_SIZES['100kb']);
      const model = aiSDKModel(deltas);
      return {
        async sample() {
          const start = performance.now();
          const result = streamText({ model, prompt: 'go', output: Output.object({ schema: Doc }) });
          let partials = 0;
          for await (const _partial of result.partialOutputStream) partials++;
          const output = await result.output;
          const ms = performance.now() - start;
          if (partials < deltas.length * 0.9 || output.items.length < 1)
            throw new Error(`AI SDK: ${partials} partials, ${output.items.length} items`);
          return ms;
        },
      };
    },
  },
  ours('output/partial-100kb', '100kb', 1, {
    anchor: 'output/ai-sdk-partial-100kb',
    target: { max: 0.01 },
    repeat: 5,
    warmup: 1,
    note: `${OURS}, 100 KB; target ≥ 100× faster than the AI SDK on the same deltas (ratio ≤ 0.01)`,
  }),
  ours('output/partial-10x100kb', '100kb', 10, {
    note: `${OURS}: ten 100 KB answers in a row, the bytes of one 1 MB answer (the anchor of the linearity figure)`,
  }),
  ours('output/partial-1mb', '1mb', 1, {
    anchor: 'output/partial-10x100kb',
    note: `${OURS}, 1 MB, timed alternately with ten 100 KB answers: its pair ratio is the time per byte at 1 MB ÷ that at 100 KB`,
  }),
];
