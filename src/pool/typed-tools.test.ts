import { describe, expectTypeOf, it } from 'vitest';
import * as z from 'zod/mini';
import { defineTool } from '../../worker/define-tool';
import { createAgent } from '../agent/agent';
import { ToolInvoker } from '../invoker/tool-invoker';
import { scriptedModel } from '../models/scripted-model';
import { resultValue, type ToolResult } from './tool-result';
import type { ToolArgs, ToolName, ToolOutput } from './typed-tools';
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
] as const;
type Tools = typeof tools;

describe('typed tools', () => {
  it('defineTool keeps the name, the arguments and the result', () => {
    expectTypeOf<ToolName<Tools>>().toEqualTypeOf<'multiply' | 'greet' | 'count'>();
    expectTypeOf<ToolArgs<Tools, 'multiply'>>().toEqualTypeOf<{ a: number; b: number }>();
    expectTypeOf<ToolArgs<Tools, 'greet'>>().toEqualTypeOf<{ who: string; loud?: boolean | undefined }>();
    expectTypeOf<ToolOutput<Tools, 'multiply'>>().toEqualTypeOf<number>();
    expectTypeOf<ToolOutput<Tools, 'greet'>>().toEqualTypeOf<{ text: string }>();
    // A stream of progress: the result is what the generator returns.
    expectTypeOf<ToolOutput<Tools, 'count'>>().toEqualTypeOf<number>();
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
});
