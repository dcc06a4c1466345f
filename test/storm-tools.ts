// The storm's tools (issue #15): innocent ones (add, sleep) that tell the test page when they
// start and finish, and hostile ones (boom throws, spin never returns).
import * as z from 'zod/mini';
import { defineTool } from '../worker/define-tool';
import { sleep } from './sleep';

const channel = new BroadcastChannel('moat-storm');
const say = (what: 'start' | 'done', id: string) => channel.postMessage(`${what}:${id}`);

export function stormTools(idempotent: boolean) {
  return [
    defineTool({
      name: 'add',
      description: 'Add two numbers.',
      input: z.object({ a: z.number(), b: z.number() }),
      idempotent,
      run: ({ a, b }, { toolCallId }) => {
        say('start', toolCallId);
        say('done', toolCallId);
        return a + b;
      },
    }),
    defineTool({
      name: 'sleep',
      description: 'Wait ms milliseconds.',
      input: z.object({ ms: z.number() }),
      idempotent,
      run: async ({ ms }, { toolCallId }) => {
        say('start', toolCallId);
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
