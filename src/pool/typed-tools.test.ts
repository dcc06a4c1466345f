import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import { defineTool } from '../../worker/define-tool';
import { withArtifact, withUpdate } from '../../worker/results';
import { createAgent } from '../agent/agent';
import { createChat } from '../chat/create-chat';
import { ToolInvoker } from '../invoker/tool-invoker';
import { scriptedModel } from '../models/scripted-model';
import type { ToolArgs, ToolName, ToolOutput } from './pool-options';
import { resultValue, type ToolResult } from './pool-options';
import { createWorkerPool, type WorkerPool } from './worker-pool';

// What a worker module exports as `typeof tools` (types only: nothing here runs a worker).
const tools = [
  defineTool({
    name: 'multiply',
    description: 'Multiply two integers.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => a * b,
  }),
  defineTool({
    name: 'greet',
    description: 'Say hello.',
    input: z.object({ who: z.string(), loud: z.optional(z.boolean()) }),
    run: async ({ who }) => ({ text: `Hello, ${who}` }),
  }),
  defineTool({
    name: 'count',
    description: 'Count up, reporting each step.',
    input: z.object({ n: z.number() }),
    async *run({ n }) {
      for (let i = 0; i < n; i++) yield { progress: i / n };
      return n;
    },
  }),
  defineTool({
    name: 'add_to_cart',
    description: 'Add an item; the cart is state.',
    input: z.object({ item: z.string() }),
    run: ({ item }) => withUpdate({ added: item }, { cart: [item] }),
  }),
  defineTool({
    name: 'search',
    description: 'Rows for the app, a summary for the model.',
    input: z.object({ q: z.string() }),
    run: ({ q }) => withArtifact(`2 rows for ${q}`, [{ id: 1 }, { id: 2 }]),
  }),
  defineTool({
    name: 'chart',
    description: 'A caption and an image.',
    input: z.object({}),
    run: () => ({
      content: [
        { type: 'text', text: 'Sales' },
        { type: 'image', data: new Uint8Array(8) },
      ],
    }),
  }),
  defineTool({
    name: 'forget',
    description: 'Returns nothing.',
    input: z.object({}),
    run: () => {},
  }),
] as const;
type Tools = typeof tools;

describe('typed tools', () => {
  it('defineTool keeps the name, the arguments and the result', () => {
    expectTypeOf<ToolName<Tools>>().toEqualTypeOf<
      'multiply' | 'greet' | 'count' | 'add_to_cart' | 'search' | 'chart' | 'forget'
    >();
    expectTypeOf<ToolArgs<Tools, 'multiply'>>().toEqualTypeOf<{ a: number; b: number }>();
    expectTypeOf<ToolArgs<Tools, 'greet'>>().toEqualTypeOf<{ who: string; loud?: boolean | undefined }>();
    expectTypeOf<ToolOutput<Tools, 'multiply'>>().toEqualTypeOf<number>();
    expectTypeOf<ToolOutput<Tools, 'greet'>>().toEqualTypeOf<{ text: string }>();
    // A stream of progress: the result is what the generator returns.
    expectTypeOf<ToolOutput<Tools, 'count'>>().toEqualTypeOf<number>();
    // A withUpdate's result, and a withArtifact's text (the artifact rides beside it).
    expectTypeOf<ToolOutput<Tools, 'add_to_cart'>>().toEqualTypeOf<{ added: string }>();
    expectTypeOf<ToolOutput<Tools, 'search'>>().toEqualTypeOf<string>();
    // A parts result's text (its images ride beside it, in the message).
    expectTypeOf<ToolOutput<Tools, 'chart'>>().toEqualTypeOf<string>();
    // Nothing: an empty text (null under resultFormat 'json').
    expectTypeOf<ToolOutput<Tools, 'forget'>>().toEqualTypeOf<'' | null>();
  });

  it('a pool typed by its tools checks each call and types its result', () => {
    const typed = () => createWorkerPool<Tools>({ worker: 'tools.js' });
    type Pool = ReturnType<typeof typed>;
    type CallMultiply = () => ReturnType<Pool['call']>;
    expectTypeOf<Awaited<ReturnType<CallMultiply>>>().toExtend<ToolResult>();
    const check = async (pool: Pool) => {
      const r = await pool.call({ id: 'c1', name: 'multiply', args: { a: 3, b: 12 } });
      expectTypeOf(r.name).toEqualTypeOf<'multiply'>();
      expectTypeOf(resultValue(r)).toEqualTypeOf<number>();
      const g = await pool.call({ id: 'c2', name: 'greet', args: { who: 'Ada' } });
      expectTypeOf(resultValue(g)).toEqualTypeOf<{ text: string }>();
      // @ts-expect-error: no such tool
      await pool.call({ id: 'c3', name: 'divide', args: { a: 1, b: 2 } });
      // @ts-expect-error: multiply takes numbers
      await pool.call({ id: 'c4', name: 'multiply', args: { a: '3', b: 12 } });
      // @ts-expect-error: greet needs who
      await pool.call({ id: 'c5', name: 'greet', args: {} });
    };
    expectTypeOf(check).toBeFunction();
  });

  it('an untyped pool takes any call, and a typed pool goes wherever a pool does', () => {
    const untyped = async (pool: WorkerPool) => {
      const r = await pool.call({ id: 'c1', name: 'anything', args: { x: 1 } });
      expectTypeOf(resultValue(r)).toEqualTypeOf<unknown>();
    };
    expectTypeOf(untyped).toBeFunction();
    const wire = (pool: WorkerPool<Tools>) => {
      new ToolInvoker({ pool });
      createAgent({ model: scriptedModel(() => ({ text: 'hi' })), pool });
    };
    expectTypeOf(wire).toBeFunction();
  });

  it("an agent or invoker over a typed pool narrows each tool-finished output by the tool's name", () => {
    const read = async (pool: WorkerPool<Tools>) => {
      for await (const event of createAgent({ model: scriptedModel(() => ({ text: 'hi' })), pool }).stream('hi')) {
        if (event.type !== 'tool-finished') continue;
        expectTypeOf(event.name).toEqualTypeOf<ToolName<Tools>>();
        if (event.name === 'multiply') expectTypeOf(event.output).toEqualTypeOf<number>();
        if (event.name === 'greet') expectTypeOf(event.output).toEqualTypeOf<{ text: string }>();
        if (event.name === 'add_to_cart') expectTypeOf(event.output).toEqualTypeOf<{ added: string }>();
        // @ts-expect-error: multiply's output is a number
        if (event.name === 'multiply') event.output.text;
      }
      for await (const event of new ToolInvoker({ pool }).stream([])) {
        if (event.type === 'tool-finished' && event.name === 'greet')
          expectTypeOf(event.output).toEqualTypeOf<{ text: string }>();
      }
      // Inline tools type the events when named.
      for await (const event of new ToolInvoker<Tools>({ inlineTools: tools }).stream([])) {
        if (event.type === 'tool-finished' && event.name === 'multiply')
          expectTypeOf(event.output).toEqualTypeOf<number>();
      }
    };
    expectTypeOf(read).toBeFunction();
  });

  it('an untyped pool gives unknown outputs; a typed agent still drives a chat', () => {
    const read = async (pool: WorkerPool, typed: WorkerPool<Tools>) => {
      for await (const event of createAgent({ model: scriptedModel(() => ({ text: 'hi' })), pool }).stream('hi')) {
        if (event.type === 'tool-finished') {
          expectTypeOf(event.name).toEqualTypeOf<string>();
          expectTypeOf(event.output).toEqualTypeOf<unknown>();
        }
      }
      createChat({ agent: createAgent({ model: scriptedModel(() => ({ text: 'hi' })), pool: typed }) });
    };
    expectTypeOf(read).toBeFunction();
  });
});
