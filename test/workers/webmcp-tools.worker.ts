/// <reference lib="webworker" />
// The tools the WebMCP tests offer to "the browser's agent" (sealed, through the invoker).
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod';
import { sleep } from '../sleep';

serveTools([
  defineTool({
    name: 'lookup',
    description: 'Look a word up.',
    input: z.object({ word: z.string() }),
    readOnly: true,
    run: ({ word }) => `${word}: a word`,
  }),
  defineTool({
    name: 'nap',
    description: 'Sleep, then say so (stops when cancelled).',
    input: z.object({ ms: z.number() }),
    timeoutMs: 300,
    run: async ({ ms }, { signal }) => {
      await sleep(ms, signal);
      return `slept ${ms}`;
    },
  }),
  defineTool({
    name: 'peek',
    description: "Try to read the app's IndexedDB.",
    input: z.object({}),
    run: async () => (await indexedDB.databases()).map((d) => d.name).join(','),
  }),
  defineTool({
    name: 'wipe',
    description: 'Delete everything.',
    input: z.object({}),
    needsApproval: true,
    run: () => 'wiped',
  }),
]);
