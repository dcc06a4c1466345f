/**
 * The agent's own costs: how soon a call starts once the byte that completes its arguments
 * arrives, and one agent step against doing the same by hand (decode the stream, run the turn).
 */
import { createAgent } from '../../src/agent/agent';
import { ToolInvoker } from '../../src/invoker/tool-invoker';
import { openAICompatible } from '../../src/models/openai-compatible';
import { createWorkerPool, type WorkerPool } from '../../src/pool/worker-pool';
import { decodeStream } from '../../src/stream/decode-stream';
import { type BenchCase, time } from '../case';
import poolToolsMiniUrl from '../workers/pool-tools-mini.worker.ts?worker&url';

// Sealed, the default: what an app's agent gets.
const worker = poolToolsMiniUrl;
const encoder = new TextEncoder();
const CALLS = 40;

let shared: Promise<WorkerPool> | undefined;
/** The agent cases' pool (the context cases' too), warm. */
export function warmPool(): Promise<WorkerPool> {
  shared ??= (async () => {
    const pool = createWorkerPool({ worker, size: 2 });
    await pool.warm();
    await pool.callMany(Array.from({ length: 50 }, (_, i) => ({ id: `w${i}`, name: 'noop', args: { i } })));
    return pool;
  })();
  return shared;
}

const sse = (chunk: unknown) => `data: ${JSON.stringify(chunk)}\n\n`;
const delta = (d: Record<string, unknown>, finish: string | null = null) =>
  sse({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta: d, finish_reason: finish }] });

/** A call's chunks, split so that its last byte (the closing brace) arrives on its own. */
function callChunks(index: number): [string, string] {
  return [
    delta({
      tool_calls: [{ index, id: `call_${index}`, type: 'function', function: { name: 'noop', arguments: '' } }],
    }) + delta({ tool_calls: [{ index, function: { arguments: `{"i": ${index}` } }] }),
    delta({ tool_calls: [{ index, function: { arguments: '}' } }] }),
  ];
}

/** A fetch whose response body the bench writes to, chunk by chunk. */
function controlledFetch(): { fetch: typeof fetch; next(): Promise<ReadableStreamDefaultController<Uint8Array>> } {
  const waiting: ((c: ReadableStreamDefaultController<Uint8Array>) => void)[] = [];
  const ready: ReadableStreamDefaultController<Uint8Array>[] = [];
  return {
    fetch: async () =>
      new Response(
        new ReadableStream<Uint8Array>({
          start(controller) {
            const take = waiting.shift();
            if (take) take(controller);
            else ready.push(controller);
          },
        }),
        { headers: { 'content-type': 'text/event-stream' } },
      ),
    next: () => {
      const c = ready.shift();
      return c ? Promise.resolve(c) : new Promise((resolve) => waiting.push(resolve));
    },
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[sorted.length >> 1] as number;
}

/** The whole answer of `n` calls as one byte sequence (for the by-hand comparison). */
export function turnBytes(n: number): Uint8Array {
  let text = delta({ role: 'assistant', content: '' });
  for (let i = 0; i < n; i++) text += callChunks(i).join('');
  text += delta({}, 'tool_calls');
  text += sse({
    id: 'c',
    object: 'chat.completion.chunk',
    choices: [],
    usage: { prompt_tokens: 10, completion_tokens: 10 },
  });
  return encoder.encode(`${text}data: [DONE]\n\n`);
}

export const bytesResponse = (bytes: Uint8Array) =>
  new Response(
    new ReadableStream({
      start(c) {
        c.enqueue(bytes);
        c.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );

export const STEPS = 30;

/** Characters of arguments in the long call, and in each of its deltas. */
const LONG_ARGS = 50_000_000;
const LONG_DELTA = 256;
/** The size of the reads the long answer's body gives (a network read's size). */
const READ_BYTES = 65_536;

/**
 * One answer whose single call writes a 50 MB file as one string argument, in 256-character
 * deltas, as the SSE bytes a provider sends (about 90 MB of them).
 */
function longArgsBytes(): Uint8Array {
  const line = 'A line of the "file", with a tab\tand café ☕ in it.\n';
  const args = JSON.stringify({ i: 0, content: line.repeat(Math.ceil(LONG_ARGS / line.length)) });
  const events = [
    delta({ role: 'assistant', content: '' }),
    delta({ tool_calls: [{ index: 0, id: 'call_long', type: 'function', function: { name: 'noop', arguments: '' } }] }),
  ];
  for (let at = 0; at < args.length; at += LONG_DELTA)
    events.push(delta({ tool_calls: [{ index: 0, function: { arguments: args.slice(at, at + LONG_DELTA) } }] }));
  events.push(delta({}, 'tool_calls'), 'data: [DONE]\n\n');
  return encoder.encode(events.join(''));
}

/** A body that has every byte ready: each read is answered at once, READ_BYTES at a time. */
function readyResponse(bytes: Uint8Array): Response {
  let at = 0;
  return new Response(
    new ReadableStream<Uint8Array>({
      pull(controller) {
        if (at >= bytes.length) return controller.close();
        controller.enqueue(bytes.subarray(at, at + READ_BYTES));
        at += READ_BYTES;
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
}

/**
 * One agent step of a 10-call turn over the same bytes, maxSteps 1, timed as the mean of STEPS:
 * agent/step-overhead's sample, and (with a context window, so fitting runs) the context cases'.
 */
export async function agentStep(contextWindow?: number): Promise<{ sample: () => Promise<number> }> {
  const pool = await warmPool();
  const bytes = turnBytes(10);
  const model = openAICompatible({
    baseURL: 'http://bench.invalid/v1',
    model: 'm',
    ...(contextWindow === undefined ? {} : { contextWindow }),
    fetch: async () => bytesResponse(bytes),
  });
  const agent = createAgent({ model, pool, maxSteps: 1 });
  await agent.tools();
  return {
    sample: async () =>
      (await time(async () => {
        for (let s = 0; s < STEPS; s++) for await (const _event of agent.stream('go'));
      })) / STEPS,
  };
}

export const agentCases: BenchCase[] = [
  {
    name: 'anchor/stream-chunk-to-read',
    unit: 'ms',
    note: `median over ${CALLS} chunks of the time from enqueueing a chunk on a ReadableStream to a reader of it getting it: the least any stream consumer waits`,
    setup() {
      return {
        async sample() {
          let controller!: ReadableStreamDefaultController<Uint8Array>;
          const stream = new ReadableStream<Uint8Array>({
            start: (c) => {
              controller = c;
            },
          });
          const reader = stream.getReader();
          const latencies: number[] = [];
          for (let i = 0; i < CALLS; i++) {
            const [head, last] = callChunks(i);
            controller.enqueue(encoder.encode(head));
            await reader.read();
            const start = performance.now();
            controller.enqueue(encoder.encode(last));
            await reader.read();
            latencies.push(performance.now() - start);
          }
          controller.close();
          return median(latencies);
        },
      };
    },
  },
  {
    name: 'agent/args-complete-to-started',
    unit: 'ms',
    anchor: 'anchor/stream-chunk-to-read',
    target: { max: 1, of: 'median' },
    note: `median over ${CALLS} calls of one streamed OpenAI answer: from enqueueing the chunk holding the closing brace of a call's arguments to the agent's consumer getting its tool-started (bytes → SSE → decoder → agent → pool dispatch → event); target < 1 ms`,
    async setup() {
      const pool = await warmPool();
      return {
        async sample() {
          const wire = controlledFetch();
          const model = openAICompatible({
            baseURL: 'http://bench.invalid/v1',
            model: 'm',
            fetch: wire.fetch,
            maxRetries: 0,
          });
          const agent = createAgent({ model, pool, maxSteps: 1 });
          await agent.tools();
          const latencies: number[] = [];
          let started: (() => void) | undefined;
          const consuming = (async () => {
            for await (const event of agent.stream('go')) {
              if (event.type === 'tool-started') started?.();
              if (event.type === 'error') throw event.error;
            }
          })();
          const controller = await wire.next();
          controller.enqueue(encoder.encode(delta({ role: 'assistant', content: '' })));
          for (let i = 0; i < CALLS; i++) {
            const [head, last] = callChunks(i);
            controller.enqueue(encoder.encode(head));
            const seen = new Promise<void>((resolve) => {
              started = resolve;
            });
            await new Promise((resolve) => setTimeout(resolve, 0));
            const start = performance.now();
            controller.enqueue(encoder.encode(last));
            await seen;
            latencies.push(performance.now() - start);
          }
          controller.enqueue(encoder.encode(`${delta({}, 'tool_calls')}data: [DONE]\n\n`));
          controller.close();
          await consuming;
          return median(latencies);
        },
      };
    },
  },
  {
    name: 'agent/by-hand-step',
    unit: 'ms',
    note: `one model turn of 10 calls done by hand: decodeStream of the answer's bytes, then ToolInvoker.run of its message over a warm pool (mean of ${STEPS})`,
    async setup() {
      const pool = await warmPool();
      const invoker = await ToolInvoker.create({ pool });
      const bytes = turnBytes(10);
      return {
        sample: async () =>
          (await time(async () => {
            for (let s = 0; s < STEPS; s++) {
              const response = bytesResponse(bytes);
              const parts = decodeStream('openai-chat', response.body as ReadableStream<Uint8Array>);
              for await (const _part of parts);
              await invoker.run(parts.message());
            }
          })) / STEPS,
      };
    },
  },
  {
    name: 'agent/step-overhead',
    unit: 'ms',
    anchor: 'agent/by-hand-step',
    target: { max: 1.1 },
    // Both sides warm up for 20 samples (600 steps), not 3: the agent runs more code than the
    // by-hand turn, and after 90 steps V8 has not finished optimizing it (the ratio then reads
    // about 1.2). The figure is the steady-state overhead; a cold first step costs more on both.
    warmup: 20,
    note: `the same turn as one agent step (openAICompatible over the same bytes, tools started as each call closes, the thread kept in the agent's default memory, every event consumed), maxSteps 1 (mean of ${STEPS}); both sides warmed up for 20 samples (steady state: with 3, about 1.2)`,
    setup: () => agentStep(),
  },
  longArgsCase(false),
  longArgsCase(true),
];

/**
 * The longest main-thread task while an agent step decodes one call of 50 MB of arguments: with
 * no tools (the decoding path alone: bytes → SSE → decoder → agent → events), or with the call
 * sent to a sealed pool worker once its arguments close (the page then copies them into a message).
 */
function longArgsCase(withPool: boolean): BenchCase {
  return {
    name: `agent/long-args-longest-task${withPool ? '-pool' : ''}`,
    unit: 'ms',
    ...(withPool ? {} : { target: { max: 200, of: 'median' } }),
    repeat: 3,
    warmup: 1,
    // The sample before leaves some 400 MB behind (its answer decoded twice over, as text and as
    // value): collected in the pause, not in the middle of this sample's stream.
    pauseMs: 1000,
    note: `the longest main-thread task (PerformanceObserver longtask; 0: none of 50 ms or more) while an agent step decodes one call of ${LONG_ARGS / 1e6} MB of arguments (a string with escapes and non-ASCII) streamed in ${LONG_DELTA}-character deltas, from an OpenAI answer whose body has every byte ready, read ${READ_BYTES / 1024} KB at a time; every event consumed; ${withPool ? 'the call then goes to a sealed pool worker (no target: what sending 50 MB to a worker costs the page in one task)' : 'an agent with no tools (the call is answered "not found"); target ≤ 200 ms'}`,
    async setup() {
      const pool = withPool ? await warmPool() : undefined;
      const bytes = longArgsBytes();
      const model = openAICompatible({
        baseURL: 'http://bench.invalid/v1',
        model: 'm',
        fetch: async () => readyResponse(bytes),
      });
      const agent = createAgent({ model, ...(pool ? { pool } : {}), maxSteps: 1 });
      await agent.tools();
      return {
        sample: async () => {
          const tasks: number[] = [];
          const observer = new PerformanceObserver((list) => {
            for (const entry of list.getEntries()) tasks.push(entry.duration);
          });
          observer.observe({ type: 'longtask' });
          let deltas = 0;
          for await (const event of agent.stream('go')) {
            if (event.type === 'tool-input-delta') deltas++;
            if (event.type === 'error') throw event.error;
          }
          await new Promise((resolve) => setTimeout(resolve, 50));
          observer.disconnect();
          if (deltas < LONG_ARGS / LONG_DELTA) throw new Error(`only ${deltas} argument deltas came`);
          return Math.max(0, ...tasks);
        },
      };
    },
  };
}
