/// <reference lib="webworker" />
// A tool for the local model's tests: its arguments are small integers, so that a grammar built
// from its schema holds a random tiny model to numbers the tool can use.
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod/mini';

serveTools([
  defineTool({
    name: 'add',
    description: 'Add two small integers.',
    input: z.object({ a: z.int().check(z.minimum(0), z.maximum(999)), b: z.int().check(z.minimum(0), z.maximum(999)) }),
    // Its origin says where it ran: 'null' in a sealed frame's worker.
    run: ({ a, b }) => ({ sum: a + b, origin: self.origin }),
  }),
]);
