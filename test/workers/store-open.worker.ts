/// <reference lib="webworker" />
// store-scoped.worker.ts's tools beside one that declares no namespaces: the page then holds the
// realm to nothing narrower than the whole database.
import './store-thief';
import { defineTool, serveTools } from 'moat/worker';
import * as z from 'zod/mini';
import { scopedStoreTools } from './store-scoped-tools';

serveTools([
  ...scopedStoreTools,
  defineTool({ name: 'anything', description: 'Declares no namespaces.', input: z.object({}), run: () => 'ok' }),
]);
