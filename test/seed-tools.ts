// The seed scenarios' tools: run inline (on the page, or in Node) and from a worker
// (test/workers/seed-tools.worker.ts) by the invoker's tests.
import * as z from 'zod/mini';
import { defineTool } from '../worker/define-tool';
import { withArtifact, withUpdate } from '../worker/results';
import { add, multiply } from './shared-tools';
import { sleep } from './sleep';

export const cancelled: string[] = [];

export const seedTools = [
  defineTool({
    name: 'get_weather',
    description: 'Weather in a city.',
    input: z.object({ city: z.string() }),
    run: ({ city }) => `It is sunny in ${city}.`,
  }),
  multiply(),
  add(),
  defineTool({
    name: 'divide',
    description: 'Divide a by b.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => {
      if (b === 0) throw new RangeError('division by zero');
      return a / b;
    },
  }),
  defineTool({
    name: 'greet',
    description: 'Greet the user from state.',
    input: z.object({}),
    state: 'user',
    run: (_args, { state }) => `Hello, ${(state as { name: string }).name}!`,
  }),
  defineTool({
    name: 'greet_all',
    description: 'Greet using the whole state.',
    input: z.object({}),
    state: true,
    run: (_args, { state, context }) =>
      `Hello, ${(state as { user: { name: string } }).user.name} (${(context as { locale?: string })?.locale ?? 'en'})`,
  }),
  defineTool({
    name: 'slow_counter',
    description: 'Count to n, one tick at a time.',
    input: z.object({ n: z.number() }),
    async *run({ n }, { signal, toolCallId }) {
      let counted = false;
      try {
        for (let i = 1; i <= n; i++) {
          // A slow tool is the subject: it runs long enough to be cancelled mid-way.
          await sleep(5, signal);
          yield { tick: i };
        }
        counted = true;
      } finally {
        // Stopped by its signal (mid-wait) or closed by its runner (at a yield).
        if (!counted) cancelled.push(toolCallId);
      }
      return `counted to ${n}`;
    },
  }),
  defineTool({
    name: 'add_to_cart',
    description: 'Add an item to the cart.',
    input: z.object({ item: z.string() }),
    run: ({ item }) => withUpdate(`Added ${item}`, { cart: [item] }),
  }),
  defineTool({
    name: 'set_theme',
    description: 'Set the theme.',
    input: z.object({ theme: z.string() }),
    run: ({ theme }) => withUpdate(`Theme ${theme}`, { theme }),
  }),
  defineTool({
    name: 'delete_user',
    description: 'Delete a user (admins only).',
    input: z.object({ userId: z.string() }),
    run: ({ userId }) => `Deleted ${userId}`,
  }),
  defineTool({
    name: 'report',
    description: 'Answer with text and keep the rows.',
    input: z.object({}),
    run: () => withArtifact('2 rows', [{ a: 1 }, { a: 2 }]),
  }),
  defineTool({
    name: 'flaky',
    description: 'Fail the first attempts.',
    input: z.object({ failures: z.number() }),
    run: (() => {
      let attempts = 0;
      return ({ failures }: { failures: number }) => {
        attempts++;
        if (attempts <= failures) throw new Error(`attempt ${attempts} failed`);
        return `succeeded on attempt ${attempts}`;
      };
    })(),
  }),
  defineTool({
    name: 'remember',
    description: 'Store a fact.',
    input: z.object({ key: z.string(), value: z.string() }),
    store: { namespaces: [['memory']] },
    run: async ({ key, value }, { store }) => {
      await store.put(['memory'], key, { value });
      return `Remembered ${key}`;
    },
  }),
  defineTool({
    name: 'recall',
    description: 'Read a fact.',
    input: z.object({ key: z.string() }),
    store: { namespaces: [['memory']] },
    run: async ({ key }, { store }) =>
      ((await store.get(['memory'], key))?.value as { value: string } | undefined)?.value ?? 'I do not know',
  }),
  defineTool({ name: 'noop', description: 'Return i.', input: z.object({ i: z.number() }), run: ({ i }) => i }),
];
