/// <reference lib="webworker" />
// The tools the pool benchmarks call.
import { defineTool, serveTools } from 'moat/worker';
import * as z from 'zod';
import { oneMegabyteObject } from '../../test/records';

let big: ReturnType<typeof oneMegabyteObject> | undefined;

serveTools([
  defineTool({
    name: 'noop',
    description: 'Return the number given.',
    input: z.object({ i: z.number() }),
    run: ({ i }) => i,
  }),
  defineTool({
    name: 'big',
    description: 'Return about 1 MB of records.',
    input: z.object({}),
    run: () => (big ??= oneMegabyteObject()),
  }),
  defineTool({
    name: 'spin',
    description: 'Burn CPU for ms milliseconds (forever when negative).',
    input: z.object({ ms: z.number() }),
    run: ({ ms }) => {
      const end = ms < 0 ? Number.POSITIVE_INFINITY : performance.now() + ms;
      let n = 0;
      while (performance.now() < end) n++;
      return n;
    },
  }),
]);
