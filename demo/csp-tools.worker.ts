/// <reference lib="webworker" />
// The demo's tools. They run in Web Workers: no DOM, no page globals, no network (the pool says
// 'deny', and the dev/preview servers send this file with a Content-Security-Policy as well).
import { defineTool, serveTools } from 'moat/worker';
import * as z from 'zod/mini';

function isPrime(n: number): boolean {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
  return true;
}

serveTools([
  defineTool({
    name: 'multiply',
    description: 'Multiply two integers.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => a * b,
  }),
  defineTool({
    name: 'count_primes',
    description: 'Count primes below n, reporting progress.',
    input: z.object({ n: z.number().check(z.maximum(50_000_000)) }),
    async *run({ n }, { signal }) {
      let count = 0;
      const step = Math.max(1, Math.floor(n / 20));
      for (let i = 2; i < n; i++) {
        if (isPrime(i)) count++;
        if (i % step === 0) {
          signal.throwIfAborted();
          yield { progress: Math.round((i / n) * 100), found: count };
        }
      }
      return count;
    },
  }),
  defineTool({
    name: 'remember',
    description: 'Store a fact for later.',
    input: z.object({ key: z.string().check(z.minLength(1)), value: z.string() }),
    store: { namespaces: [['memory']] },
    run: async ({ key, value }, { store }) => {
      await store?.put(['memory'], key, { value });
      return `Remembered ${key}`;
    },
  }),
  defineTool({
    name: 'hog_memory',
    description: 'Allocate memory without end (shows what a time limit does for the page).',
    input: z.object({}),
    run: () => {
      const hoard: number[][] = [];
      for (;;) hoard.push(new Array(1e6).fill(7));
    },
  }),
  defineTool({
    name: 'fetch_page',
    description: 'Try to fetch a URL (the pool denies the network: this shows the guard).',
    input: z.object({ url: z.string() }),
    run: async ({ url }) => (await fetch(url)).text(),
  }),
]);
