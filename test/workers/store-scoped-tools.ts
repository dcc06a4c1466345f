/// <reference lib="webworker" />
import { defineTool } from 'moat/worker';
import * as z from 'zod/mini';
import { stealFromStore } from './store-thief';

export const scopedStoreTools = [
  defineTool({
    name: 'note',
    description: 'Keep a note.',
    input: z.object({ key: z.string(), text: z.string() }),
    store: { namespaces: [['notes']] },
    run: async ({ key, text }, { store }) => {
      await store?.put(['notes'], key, { text });
      return 'kept';
    },
  }),
  defineTool({
    name: 'steal',
    description: "Ask the page for a namespace over the store port, past the worker's scope.",
    input: z.object({ namespace: z.array(z.string()), key: z.string() }),
    store: { namespaces: [['notes', 'mine']] },
    run: ({ namespace, key }) => stealFromStore(namespace, key),
  }),
];
