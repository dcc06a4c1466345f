// The tools the pool benchmarks call, with schemas from whichever zod the worker loads.
import { defineTool, type ToolDefinition } from 'moat-sdk/worker';
import type { $ZodType } from 'zod/v4/core';
import { oneMegabyteObject } from '../../test/records';

let big: ReturnType<typeof oneMegabyteObject> | undefined;

/** The same tools, given `{ i: number }`, `{}` and `{ ms: number }` object schemas. */
export function poolTools(schemas: { number: $ZodType; empty: $ZodType; ms: $ZodType }): ToolDefinition[] {
  return [
    defineTool({
      name: 'noop',
      description: 'Return the number given.',
      input: schemas.number,
      run: (args) => (args as { i: number }).i,
    }),
    defineTool({
      name: 'big',
      description: 'Return about 1 MB of records.',
      input: schemas.empty,
      run: () => (big ??= oneMegabyteObject()),
    }),
    defineTool({
      name: 'sleep',
      description: 'Wait ms milliseconds.',
      input: schemas.ms,
      run: (args) => new Promise((resolve) => setTimeout(() => resolve('slept'), (args as { ms: number }).ms)),
    }),
    defineTool({
      name: 'boom',
      description: 'Throw.',
      input: schemas.empty,
      run: () => {
        throw new Error('boom');
      },
    }),
    defineTool({
      name: 'spin',
      description: 'Burn CPU for ms milliseconds (forever when negative).',
      input: schemas.ms,
      run: (args) => {
        const { ms } = args as { ms: number };
        const end = ms < 0 ? Number.POSITIVE_INFINITY : performance.now() + ms;
        let n = 0;
        while (performance.now() < end) n++;
        return n;
      },
    }),
  ];
}
