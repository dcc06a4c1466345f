/// <reference lib="webworker" />
// Tools that use runtime.store: the pool opens the same IndexedDB database as the page.
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod/mini';
import { seedTools } from '../seed-tools';

serveTools([
  defineTool({
    name: 'increment',
    description: 'Add one to a counter, n times, each its own transaction.',
    input: z.object({ key: z.string(), times: z.number() }),
    run: async ({ key, times }, { store }) => {
      for (let i = 0; i < times; i++)
        await store.update(['counters'], key, (v) => ((v as number | undefined) ?? 0) + 1);
      return times;
    },
  }),
  ...seedTools.filter((t) => t.name === 'remember' || t.name === 'recall'),
  defineTool({
    name: 'loaded_scripts',
    description: 'What this worker has fetched since it started (its resource timing).',
    input: z.object({}),
    run: () => performance.getEntriesByType('resource').map((e) => e.name),
  }),
  defineTool({
    name: 'peek',
    description: 'Try to read outside the allowed namespaces.',
    input: z.object({}),
    store: { namespaces: [['memory']] },
    run: async (_args, { store }) => store.get(['secrets'], 'api-key'),
  }),
]);
