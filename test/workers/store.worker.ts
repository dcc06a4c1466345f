/// <reference lib="webworker" />
// Tools that use runtime.store: the pool opens the same IndexedDB database as the page.
import { defineTool, serveTools } from 'moat/worker';
import * as z from 'zod/mini';

serveTools([
  defineTool({
    name: 'increment',
    description: 'Add one to a counter, n times, each its own transaction.',
    input: z.object({ key: z.string(), times: z.number() }),
    run: async ({ key, times }, { store }) => {
      if (!store) throw new Error('no store configured');
      for (let i = 0; i < times; i++)
        await store.update(['counters'], key, (v) => ((v as number | undefined) ?? 0) + 1);
      return times;
    },
  }),
  defineTool({
    name: 'remember',
    description: 'Store a fact.',
    input: z.object({ key: z.string(), value: z.string() }),
    store: { namespaces: [['memory']] },
    run: async ({ key, value }, { store }) => {
      await store?.put(['memory'], key, { value });
      return `Remembered ${key}`;
    },
  }),
  defineTool({
    name: 'recall',
    description: 'Read a fact back.',
    input: z.object({ key: z.string() }),
    store: { namespaces: [['memory']] },
    run: async ({ key }, { store }) => (await store?.get(['memory'], key))?.value ?? null,
  }),
  defineTool({
    name: 'peek',
    description: 'Try to read outside the allowed namespaces.',
    input: z.object({}),
    store: { namespaces: [['memory']] },
    run: async (_args, { store }) => store?.get(['secrets'], 'api-key'),
  }),
]);
