/// <reference lib="webworker" />
// A plain worker whose own code runs before moat-sdk/worker (./witness-first, imported first): the
// documented weak spot of a plain worker, used here as a witness. It sees every request the page
// sends, and its `witness` tool says what crossed: each batch of calls, and the state each carried.
// biome-ignore assist/source/organizeImports: witness-first must be evaluated before moat-sdk/worker
import { batches } from './witness-first';
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
    name: 'user_state',
    description: 'See one field of the caller state.',
    input: z.object({}),
    state: 'user',
    run: (_args, { state }) => ({ state }),
  }),
  defineTool({
    name: 'whole_state',
    description: 'See all of the caller state.',
    input: z.object({}),
    state: true,
    run: (_args, { state }) => ({ state }),
  }),
  defineTool({
    name: 'witness',
    description: 'Say what the page sent this worker.',
    input: z.object({}),
    run: () => batches,
  }),
]);
