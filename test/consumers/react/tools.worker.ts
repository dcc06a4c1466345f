import { defineTool, serveTools } from 'moat-sdk/worker';
import { z } from 'zod';

serveTools([
  defineTool({
    name: 'multiply',
    description: 'Multiply two integers.',
    input: z.object({ a: z.number().int(), b: z.number().int() }),
    run: ({ a, b }) => a * b,
  }),
]);
