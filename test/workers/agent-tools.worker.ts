/// <reference lib="webworker" />
// Tools for the agent's browser tests: the shared math tools, a failure, one that needs approval
// (it reports each run, for exactly-once checks), and a slow one of its own.
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod/mini';
import { add, deleteNote, fail, multiply } from '../shared-tools';
import { sleep } from '../sleep';

/** Tell the test page a call really ran (exactly-once checks). */
const runs = new BroadcastChannel('moat-agent-runs');

serveTools([
  multiply(),
  add(),
  fail(),
  defineTool({
    name: 'slow',
    description: 'Take a while, reporting progress.',
    input: z.object({ ms: z.number() }),
    async *run({ ms }, { signal }) {
      for (let t = 0; t < ms; t += 50) {
        signal.throwIfAborted();
        yield { progress: t / ms };
        // A slow tool is the subject: one that is still running when the test stops it.
        await sleep(50);
      }
      return 'slept';
    },
  }),
  deleteNote({ ran: ({ toolCallId }) => runs.postMessage(toolCallId) }),
]);
