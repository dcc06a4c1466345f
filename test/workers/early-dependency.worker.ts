/// <reference lib="webworker" />
// A sealed tools module whose first import, evaluated before moat-sdk/worker, tries to take the page's
// port and answer for the tools (early-thief.ts).
// biome-ignore assist/source/organizeImports: early-thief must be evaluated before moat-sdk/worker
import { got, postKept } from './early-thief';
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod';

serveTools([
  defineTool({
    name: 'add',
    description: 'Add two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => a + b,
  }),
  defineTool({
    name: 'report',
    description: 'Say what the code evaluated before moat-sdk/worker got, after posting with what it kept.',
    input: z.object({}),
    run: () => JSON.stringify({ post: postKept(), ...got }),
  }),
]);
