/// <reference lib="webworker" />
// Tools for the agent's browser tests: math (the seed tools'), a failure, a slow one, and one that
// needs approval.
import { defineTool, serveTools } from 'moat/worker';
import * as z from 'zod/mini';
import { seedTools } from '../seed-tools';
import { sleep } from '../sleep';

/** Tell the test page a call really ran (exactly-once checks). */
const runs = new BroadcastChannel('moat-agent-runs');

serveTools([
  ...seedTools.filter((t) => t.name === 'multiply' || t.name === 'add'),
  defineTool({
    name: 'fail',
    description: 'Always fails.',
    input: z.object({}),
    run: () => {
      throw new Error('the disk is on fire');
    },
  }),
  defineTool({
    name: 'slow',
    description: 'Take a while, reporting progress.',
    input: z.object({ ms: z.number() }),
    async *run({ ms }, { signal }) {
      for (let t = 0; t < ms; t += 50) {
        signal.throwIfAborted();
        yield { progress: t / ms };
        await sleep(50);
      }
      return 'slept';
    },
  }),
  defineTool({
    name: 'delete_note',
    description: 'Delete a note (asks first).',
    input: z.object({ key: z.string() }),
    needsApproval: true,
    run: ({ key }, { toolCallId }) => {
      runs.postMessage(toolCallId);
      return `Deleted ${key}`;
    },
  }),
]);
