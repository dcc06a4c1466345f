/**
 * The local model (moat-sdk/local): what the client costs over wllama driven directly, on the same
 * model in the same run: tokens per second, time to the first token, and the page's long tasks
 * while it generates. The model is the tests' tiny GGUF made a little larger (4 layers of 256),
 * so that each token costs the engine real work and the client's per-chunk cost shows in the ratio.
 */
import { Wllama } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { localModel } from '../../src/local/local-model';
import { userMessage } from '../../src/messages/constructors';
import { tinyGGUF } from '../../test/tiny-gguf';
import type { BenchCase } from '../case';

const TOKENS = 96;
const PROMPT = 'Tell me about the sea, at length.';
const CONTEXT = 1024;
/**
 * One inference thread on both sides: with two, on a two-core machine, the engine's threads and
 * the page (and anything else running) fight for the cores and samples ranged 14-505 tokens/s.
 * What is compared is the client's cost over the engine's, which the thread count does not change.
 */
const THREADS = 1;
const model = () => new Blob([tinyGGUF({ embedding: 256, layers: 4, seed: 11 })]);
/** The same request both ways: greedy, a fixed length (the end-of-turn token ignored). */
const REQUEST = { max_tokens: TOKENS, temperature: 0, ignore_eos: true };

interface Timing {
  /** From the request to the first token of text, ms. */
  firstToken: number;
  /** Tokens after the first, per second of the time they took. */
  tokensPerSecond: number;
}

/** One generation through moat-sdk/local's client. */
async function viaClient(): Promise<{ run(): Promise<Timing>; close(): Promise<void> }> {
  const client = localModel({
    model: model(),
    wasmUrl,
    contextSize: CONTEXT,
    threads: THREADS,
    providerOptions: REQUEST,
  });
  await client.load();
  return {
    async run() {
      const start = performance.now();
      let first = 0;
      let last = 0;
      const stream = client.stream({ messages: [userMessage(PROMPT)] });
      for await (const part of stream) {
        if (part.type !== 'text-delta') continue;
        last = performance.now();
        if (first === 0) first = last;
      }
      const tokens = stream.message().usage?.outputTokens ?? 0;
      return { firstToken: first - start, tokensPerSecond: ((tokens - 1) * 1000) / (last - first) };
    },
    close: () => client.unload(),
  };
}

/** The same generation through wllama's own streaming API, no Moat in between. */
async function direct(): Promise<{ run(): Promise<Timing>; close(): Promise<void> }> {
  const engine = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, logger: QUIET });
  await engine.loadModel([model()], { n_ctx: CONTEXT, n_threads: THREADS, n_gpu_layers: 0, jinja: true });
  return {
    async run() {
      const start = performance.now();
      let first = 0;
      let last = 0;
      let tokens = 0;
      const chunks = await engine.createChatCompletion({
        messages: [{ role: 'user', content: PROMPT }],
        stream: true,
        stream_options: { include_usage: true },
        ...REQUEST,
      } as never);
      for await (const chunk of chunks as unknown as AsyncIterable<{
        choices: { delta?: { content?: string | null } }[];
        usage?: { completion_tokens: number };
      }>) {
        if (chunk.usage) tokens = chunk.usage.completion_tokens;
        if (!chunk.choices[0]?.delta?.content) continue;
        last = performance.now();
        if (first === 0) first = last;
      }
      return { firstToken: first - start, tokensPerSecond: ((tokens - 1) * 1000) / (last - first) };
    },
    close: () => engine.exit(),
  };
}

const QUIET = { debug: () => {}, log: () => {}, warn: () => {}, error: () => {} };

function timingCase(
  name: string,
  unit: 'ops/s' | 'ms',
  make: typeof direct,
  pick: (t: Timing) => number,
  extra: Partial<BenchCase> = {},
): BenchCase {
  return {
    name,
    unit,
    repeat: 10,
    async setup() {
      const engine = await make();
      return { sample: async () => pick(await engine.run()), teardown: () => engine.close() };
    },
    ...extra,
  };
}

const tps = (t: Timing) => t.tokensPerSecond;
const ttft = (t: Timing) => t.firstToken;
const SAME = `the tests' tiny llama GGUF at 4 layers of 256 (seeded random weights), greedy, ${TOKENS} tokens (end of turn ignored), a ${CONTEXT}-token context, one thread`;

export const localCases: BenchCase[] = [
  timingCase('anchor/wllama-direct-tokens-per-second', 'ops/s', direct, tps, {
    note: `wllama's createChatCompletion streamed directly: tokens after the first per second; ${SAME}`,
  }),
  timingCase('local/tokens-per-second', 'ops/s', viaClient, tps, {
    anchor: 'anchor/wllama-direct-tokens-per-second',
    target: { min: 0.95 },
    note: `localModel(...).stream(): the same generation as text-delta parts (wllama, the chunk decoder, modelStream); ${SAME}`,
  }),
  timingCase('anchor/wllama-direct-first-token', 'ms', direct, ttft, {
    note: `wllama's createChatCompletion: from the call to the first token of text; ${SAME}`,
  }),
  timingCase('local/time-to-first-token', 'ms', viaClient, ttft, {
    anchor: 'anchor/wllama-direct-first-token',
    target: { max: 1.1 },
    note: `localModel(...).stream(): from the call to the first text-delta part; ${SAME}`,
  }),
  {
    name: 'local/long-tasks',
    unit: 'count',
    repeat: 5,
    target: { max: 0, of: 'median' },
    note: `main-thread long tasks (PerformanceObserver longtask, 50 ms or more) while localModel streams ${TOKENS} tokens: inference runs in wllama's worker`,
    async setup() {
      const engine = await viaClient();
      return {
        async sample() {
          const entries: PerformanceEntry[] = [];
          const observer = new PerformanceObserver((list) => entries.push(...list.getEntries()));
          observer.observe({ type: 'longtask' });
          await engine.run();
          // Entries are delivered asynchronously: let the last ones arrive.
          await new Promise((resolve) => setTimeout(resolve, 100));
          observer.disconnect();
          return entries.length;
        },
        teardown: () => engine.close(),
      };
    },
  },
];
