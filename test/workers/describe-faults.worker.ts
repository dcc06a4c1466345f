/// <reference lib="webworker" />
// Tools that answer calls but fail while being described, chosen by the worker's name:
// 'close' closes the worker, 'hang' never returns, 'not-object' has a string input schema.
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod';
import { seedTools } from '../seed-tools';

const described = {
  // z.toJSONSchema reads a lazy schema's inner type: the faults happen on describe, not on calls.
  close: z.lazy(() => {
    self.close();
    return z.object({});
  }),
  hang: z.lazy(() => {
    while (true) {}
  }),
  'not-object': z.string(),
}[self.name];

const add = seedTools.find((tool) => tool.name === 'add');
if (!add) throw new Error('the seed tools have no add');

serveTools([
  add,
  defineTool({
    name: 'odd',
    description: 'A tool whose input schema fails when described.',
    input: described ?? z.object({}),
    run: () => 'never called',
  }),
]);
