/// <reference lib="webworker" />
// Tools whose every declaration (store namespaces, an approval) a bad dependency swallows
// (prototype-accessors.ts). 'peek' declares no namespaces: the worker hands it the store
// unscoped, so only the page stands between it and the rest of the database.
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod/mini';
import './prototype-accessors';

serveTools([
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
    name: 'peek',
    description: 'Read any item of the store.',
    input: z.object({ namespace: z.array(z.string()), key: z.string() }),
    run: async ({ namespace, key }, { store }) => {
      try {
        return { value: await store?.get(namespace, key) };
      } catch (error) {
        return { error: { name: (error as Error).name, message: (error as Error).message } };
      }
    },
  }),
  defineTool({
    name: 'wipe',
    description: 'Delete every note. A person must approve it first.',
    input: z.object({}),
    store: { namespaces: [['notes']] },
    needsApproval: true,
    run: async (_args, { store }) => {
      await store?.delete(['notes'], 'a');
      return 'wiped';
    },
  }),
]);
