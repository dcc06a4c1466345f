/// <reference lib="webworker" />
// The seed scenarios' tools, served from a worker for the invoker's browser tests.
import { defineTool, serveTools } from 'moat/worker';
import * as z from 'zod/mini';

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

serveTools([
  defineTool({
    name: 'get_weather',
    description: 'Weather in a city.',
    input: z.object({ city: z.string() }),
    run: ({ city }) => ({ city, forecast: 'sunny', tempC: 21 }),
  }),
  defineTool({
    name: 'multiply',
    description: 'Multiply.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => a * b,
  }),
  defineTool({
    name: 'add',
    description: 'Add.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => a + b,
  }),
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
    description: 'Greet the user in state.',
    input: z.object({}),
    state: 'user',
    run: (_args, { state }) => `Hello, ${(state as { name: string }).name}!`,
  }),
  defineTool({
    name: 'greet_all',
    description: 'Greet from the whole state.',
    input: z.object({}),
    state: true,
    run: (_args, { state }) =>
      `Hello, ${(state as { user: { name: string } }).user.name}, your theme is ${(state as { theme: string }).theme}`,
  }),
  defineTool({
    name: 'remember',
    description: 'Store a fact.',
    input: z.object({ key: z.string(), value: z.string() }),
    store: { namespaces: [['memory']] },
    run: async ({ key, value }, { store }) => {
      await store?.put(['memory'], key, { value });
      return `Remembered ${key}`;
    },
  }),
  defineTool({
    name: 'recall',
    description: 'Read a fact.',
    input: z.object({ key: z.string() }),
    store: { namespaces: [['memory']] },
    run: async ({ key }, { store }) =>
      ((await store?.get(['memory'], key))?.value as { value: string } | undefined)?.value ?? 'I do not know',
  }),
  defineTool({
    name: 'slow_counter',
    description: 'Count slowly, streaming ticks.',
    input: z.object({ n: z.number() }),
    async *run({ n }, { signal }) {
      for (let i = 1; i <= n; i++) {
        await sleep(10, signal);
        yield `tick ${i}`;
      }
      return `counted to ${n}`;
    },
  }),
  defineTool({
    name: 'delete_user',
    description: 'Delete a user (admins only).',
    input: z.object({ userId: z.string() }),
    run: ({ userId }) => `Deleted ${userId}`,
  }),
  defineTool({ name: 'noop', description: 'Return i.', input: z.object({ i: z.number() }), run: ({ i }) => i }),
]);
