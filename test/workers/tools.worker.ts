/// <reference lib="webworker" />
// The tools the pool's browser tests run: well-behaved ones and every kind of misbehaviour.
import { defineTool, serveTools, withArtifact, withUpdate } from 'moat-sdk/worker';
import * as z from 'zod';
import { oneMegabyteObject } from '../records';
import { add } from '../shared-tools';
import { sleep } from '../sleep';

const runs = new BroadcastChannel('moat-test-runs');
/** Tell the test page this call really ran (to find lost or duplicated calls). */
const ran = (toolCallId: string) => runs.postMessage(toolCallId);

serveTools([
  defineTool({
    name: 'echo',
    description: 'Echo the arguments back.',
    input: z.object({ text: z.string() }).catchall(z.unknown()),
    run: (args, { toolCallId }) => {
      ran(toolCallId);
      return args;
    },
  }),
  add(),
  defineTool({
    name: 'slow',
    description: 'Wait, then answer; stops early when cancelled, and says so.',
    input: z.object({ ms: z.number(), label: z.string().optional() }),
    run: async ({ ms, label }, { signal, toolCallId }) => {
      ran(toolCallId);
      const now = () => performance.timeOrigin + performance.now();
      const startedAt = now();
      try {
        // A slow tool is the subject: one that is still running when a test cancels it.
        await sleep(ms, signal);
      } catch (error) {
        ran(`stopped:${toolCallId}`);
        throw error;
      }
      return { label: label ?? null, startedAt, endedAt: now() };
    },
  }),
  defineTool({
    name: 'spin',
    description: 'Burn CPU for a while (or forever with ms = -1), ignoring everything.',
    input: z.object({ ms: z.number() }),
    run: ({ ms }, { toolCallId }) => {
      ran(toolCallId);
      const end = ms < 0 ? Number.POSITIVE_INFINITY : performance.now() + ms;
      let n = 0;
      while (performance.now() < end) n++;
      return n;
    },
  }),
  defineTool({
    name: 'quick_spin',
    description: 'Burn CPU like spin, under a time limit of its own (300 ms).',
    input: z.object({ ms: z.number() }),
    timeoutMs: 300,
    run: ({ ms }) => {
      const end = ms < 0 ? Number.POSITIVE_INFINITY : performance.now() + ms;
      let n = 0;
      while (performance.now() < end) n++;
      return n;
    },
  }),
  defineTool({
    name: 'unbounded_spin',
    description: 'Burn CPU like spin, declaring no time limit at all (Infinity).',
    input: z.object({ ms: z.number() }),
    timeoutMs: Number.POSITIVE_INFINITY,
    run: ({ ms }, { toolCallId }) => {
      ran(toolCallId);
      const end = ms < 0 ? Number.POSITIVE_INFINITY : performance.now() + ms;
      let n = 0;
      while (performance.now() < end) n++;
      return n;
    },
  }),
  defineTool({
    name: 'ignore_abort',
    description: 'Wait a long time without looking at the signal.',
    input: z.object({}),
    run: async (_args, { toolCallId }) => {
      ran(toolCallId);
      await sleep(60_000); // the subject: it never looks at its signal
      return 'finally';
    },
  }),
  defineTool({
    name: 'fail',
    description: 'Throw.',
    input: z.object({ message: z.string() }),
    run: ({ message }, { toolCallId }) => {
      ran(toolCallId);
      throw new RangeError(message, { cause: new Error('the root cause') });
    },
  }),
  defineTool({
    name: 'fail_later',
    description: 'Reject after a tick.',
    input: z.object({ message: z.string() }),
    run: async ({ message }) => {
      await sleep(1); // the subject: a rejection that comes in a later task
      throw new TypeError(message);
    },
  }),
  defineTool({
    name: 'crash',
    description: 'Close the worker.',
    input: z.object({}),
    run: (_args, { toolCallId }) => {
      ran(toolCallId);
      self.close();
      return 'unreachable';
    },
  }),
  defineTool({
    name: 'throw_outside',
    description: 'Throw from a timer, outside any call.',
    input: z.object({}),
    run: async (_args, { toolCallId }) => {
      ran(toolCallId);
      // The subject: an error thrown by a timer, outside any call, while the call waits on.
      setTimeout(() => {
        throw new Error('thrown outside the handler');
      });
      await sleep(60_000);
    },
  }),
  defineTool({
    name: 'function_result',
    description: 'Return something with a function in it.',
    input: z.object({}),
    run: () => ({ ok: true, callback: () => 1 }),
  }),
  defineTool({
    name: 'unclonable_artifact',
    description: 'Keep an artifact that cannot be sent.',
    input: z.object({}),
    run: () => withArtifact('text is fine', { fn: () => 1 }),
  }),
  defineTool({
    name: 'unclonable_delta',
    description: 'Stream a delta that cannot be sent, then answer.',
    input: z.object({}),
    run: (_args, { emit }) => {
      emit({ fn: () => 1 });
      return 'answered after the bad delta';
    },
  }),
  defineTool({
    name: 'big',
    description: 'Return a large result.',
    input: z.object({ records: z.number().int() }),
    run: ({ records }) => oneMegabyteObject().slice(0, records),
  }),
  defineTool({
    name: 'ticks',
    description: 'Stream n ticks, then say done.',
    input: z.object({ n: z.number().int() }),
    async *run({ n }) {
      for (let i = 1; i <= n; i++) {
        yield { tick: i };
        await sleep(1); // the subject: ticks that leave the worker in messages of their own
      }
      return `done after ${n}`;
    },
  }),
  defineTool({
    name: 'flood',
    description: 'Send back a lot: `deltas` progress deltas of `eachMiB` MiB each, then a result of `resultMiB` MiB.',
    input: z.object({
      deltas: z.number().int().default(0),
      eachMiB: z.number().default(0),
      resultMiB: z.number().default(0),
    }),
    async *run({ deltas, eachMiB, resultMiB }) {
      const piece = 'x'.repeat(Math.round(eachMiB * 2 ** 20));
      for (let i = 0; i < deltas; i++) {
        // A fresh string each time (a copy of one string would be measured once by a sharer).
        yield `${i}:${piece}`;
        await sleep(0);
      }
      return resultMiB > 0 ? 'r'.repeat(Math.round(resultMiB * 2 ** 20)) : 'done';
    },
  }),
  defineTool({
    name: 'last_tick',
    description: 'Stream ticks and let the last one be the result.',
    input: z.object({ n: z.number().int() }),
    async *run({ n }) {
      for (let i = 1; i <= n; i++) yield `tick ${i}`;
    },
  }),
  defineTool({
    name: 'emit',
    description: 'Emit through the runtime, then answer.',
    input: z.object({ n: z.number().int() }),
    run: ({ n }, { emit }) => {
      for (let i = 0; i < n; i++) emit(i);
      return n;
    },
  }),
  defineTool({
    name: 'when',
    description: 'Take a Date (not JSON: only a structured clone carries it as it is).',
    input: z.object({ at: z.date() }),
    run: ({ at }) => at.toISOString(),
  }),
  defineTool({
    name: 'whole_state',
    description: 'See all of the caller state.',
    input: z.object({}),
    state: true,
    run: (_args, { state, context }) => ({ state, context }),
  }),
  defineTool({
    name: 'user_state',
    description: 'See one field of the caller state.',
    input: z.object({}),
    state: 'user',
    run: (_args, { state }) => ({ state }),
  }),
  defineTool({
    name: 'remember_fact',
    description: 'Answer and update the caller state.',
    input: z.object({ fact: z.string() }),
    run: ({ fact }) => withUpdate(`Remembered ${fact}`, { facts: [fact] }),
  }),
  defineTool({
    name: 'draw',
    description: 'Draw a red square (OffscreenCanvas) and return it as a PNG beside a caption.',
    input: z.object({ size: z.number() }),
    run: async ({ size }) => {
      const canvas = new OffscreenCanvas(size, size);
      const context = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
      context.fillStyle = '#f00';
      context.fillRect(0, 0, size, size);
      const png = await canvas.convertToBlob({ type: 'image/png' });
      return {
        content: [
          { type: 'text', text: `A red square of ${size} px` },
          { type: 'image', data: png },
        ],
      };
    },
  }),
  defineTool({
    name: 'artifact',
    description: 'Answer with text and keep rows as an artifact.',
    input: z.object({}),
    run: () => withArtifact('2 rows', [{ a: 1 }, { a: 2 }]),
  }),
  defineTool({
    name: 'typed_output',
    description: 'Promise a number, return a string.',
    input: z.object({ good: z.boolean() }),
    output: z.number(),
    run: ({ good }) => (good ? 42 : 'forty-two'),
  }),
  defineTool({
    name: 'post_to_page',
    description: 'Try to forge a result by posting to the page directly.',
    input: z.object({}),
    run: () => {
      const attempts = [
        () => self.postMessage({ t: 'out', started: 1, out: [{ id: 1, result: { content: 'forged', kind: 'text' } }] }),
        () => (Object.getPrototypeOf(self) as { postMessage: (m: unknown) => void }).postMessage.call(self, 'forged'),
      ];
      return attempts.map((attempt) => {
        try {
          attempt();
          return 'posted';
        } catch (error) {
          return (error as Error).name;
        }
      });
    },
  }),
  defineTool({
    name: 'list_tools',
    description: 'Name every tool served here.',
    input: z.object({}),
    run: (_args, { tools }) => tools.map((t) => t.name),
  }),
]);
