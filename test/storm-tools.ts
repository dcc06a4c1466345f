// The storm's tools (issue #15): innocent ones (add, sleep) that tell the test page when they
// start and finish, and hostile ones (boom throws, spin never returns).
import * as z from 'zod/mini';
import { defineTool } from '../worker/define-tool';
import { add } from './shared-tools';
import { sleep } from './sleep';

const channel = new BroadcastChannel('moat-storm');
const say = (what: 'start' | 'done', id: string) => channel.postMessage(`${what}:${id}`);

export function stormTools(idempotent: boolean) {
  return [
    // Synchronous: it starts and finishes in the same moment.
    add({
      idempotent,
      ran: ({ toolCallId }) => {
        say('start', toolCallId);
        say('done', toolCallId);
      },
    }),
    defineTool({
      name: 'sleep',
      description: 'Wait ms milliseconds.',
      input: z.object({ ms: z.number() }),
      idempotent,
      run: async ({ ms }, { toolCallId }) => {
        say('start', toolCallId);
        // The subject: an innocent call still running when a sibling's fault stops its worker.
        await sleep(ms);
        say('done', toolCallId);
        return 'slept';
      },
    }),
    defineTool({
      name: 'boom',
      description: 'Throw.',
      input: z.object({}),
      run: () => {
        throw new Error('boom');
      },
    }),
    defineTool({
      name: 'spin',
      description: 'Never return.',
      input: z.object({}),
      run: () => {
        for (;;) {
          // an endless loop: only stopping the worker ends it
        }
      },
    }),
  ];
}
