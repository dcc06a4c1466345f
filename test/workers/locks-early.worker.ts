/// <reference lib="webworker" />
// A module that ran before moat-sdk/worker: what it keeps.
// biome-ignore assist/source/organizeImports: locks-early must be evaluated before moat-sdk/worker
import { earlyPost, earlySeen } from './locks-early';
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod';

serveTools([
  defineTool({
    name: 'early',
    description: 'Say what the module that ran first saw, and post with the postMessage it kept.',
    input: z.object({}),
    run: () => {
      earlyPost({ t: 'not-a-pool-message' });
      return `seen ${earlySeen}; posted`;
    },
  }),
]);
