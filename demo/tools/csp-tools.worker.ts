/// <reference lib="webworker" />
// The demo's tools. They run sealed, in Web Workers inside a sandboxed frame: no DOM, no page
// globals, no storage of the app's, no network (the pool says 'deny'; with plain workers the
// dev/preview servers send this file with a Content-Security-Policy as well).
import { defineTool, serveTools } from 'moat-sdk/worker';
import * as z from 'zod/mini';
import { evaluate, tidy } from './calculator';
import { convert } from './units';

const NOTES = ['notes'];

/** A note's key: its title, lower-cased, spaces collapsed. */
const keyOf = (title: string) => title.trim().toLowerCase().replace(/\s+/g, ' ');

function isPrime(n: number): boolean {
  if (n < 2) return false;
  if (n % 2 === 0) return n === 2;
  for (let d = 3; d * d <= n; d += 2) if (n % d === 0) return false;
  return true;
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });

serveTools([
  defineTool({
    name: 'calculator',
    description:
      'Evaluate an arithmetic expression exactly: + - * / % ^, parentheses, sqrt, abs, round, min, max, sin, cos, log, ln, pi, e.',
    input: z.object({ expression: z.string().check(z.maxLength(1000)) }),
    run: ({ expression }) => ({ expression, result: tidy(evaluate(expression)) }),
  }),
  defineTool({
    name: 'draw_chart',
    description: 'Draw numbers as a bar chart and return it as a PNG image (with a one-line caption).',
    input: z.object({
      values: z.array(z.number()).check(z.minLength(1), z.maxLength(24)),
      title: z.optional(z.string()),
    }),
    run: async ({ values, title }) => {
      const bar = 36;
      const width = 24 + values.length * bar;
      const height = 200;
      const canvas = new OffscreenCanvas(width, height);
      const g = canvas.getContext('2d') as OffscreenCanvasRenderingContext2D;
      g.fillStyle = '#ffffff';
      g.fillRect(0, 0, width, height);
      const top = Math.max(...values.map(Math.abs), 1);
      g.fillStyle = '#2f6fd6';
      values.forEach((v, i) => {
        const h = (Math.abs(v) / top) * (height - 40);
        g.fillRect(16 + i * bar, height - 20 - h, bar - 8, h);
      });
      g.fillStyle = '#1d2433';
      g.font = '12px sans-serif';
      if (title) g.fillText(title.slice(0, 60), 12, 16);
      const png = await canvas.convertToBlob({ type: 'image/png' });
      const caption = `A bar chart of ${values.length} value${values.length === 1 ? '' : 's'} (${values.join(', ')}), ${width} × ${height} px.`;
      return {
        content: [
          { type: 'text', text: caption },
          { type: 'image', data: png },
        ],
      };
    },
  }),
  defineTool({
    name: 'convert_units',
    description: 'Convert a value between units of length, mass, volume, time, speed, data or temperature.',
    input: z.object({ value: z.number(), from: z.string(), to: z.string() }),
    run: ({ value, from, to }) => convert(value, from, to).text,
  }),
  defineTool({
    name: 'date_time',
    description: 'The current date and time, in an IANA time zone (e.g. "Asia/Tokyo"); default the user\'s own.',
    input: z.object({ timeZone: z.optional(z.string()) }),
    run: ({ timeZone }) => {
      const zone = timeZone ?? Intl.DateTimeFormat().resolvedOptions().timeZone;
      let format: Intl.DateTimeFormat;
      try {
        format = new Intl.DateTimeFormat('en-GB', { dateStyle: 'full', timeStyle: 'long', timeZone: zone });
      } catch {
        throw new RangeError(`Unknown time zone '${zone}' (use an IANA name such as 'Europe/Paris')`);
      }
      const now = new Date();
      return { timeZone: zone, local: format.format(now), iso: now.toISOString() };
    },
  }),
  defineTool({
    name: 'remember',
    description: 'Save a note under a short title, for later conversations (kept in the browser).',
    input: z.object({
      title: z.string().check(z.minLength(1), z.maxLength(200)),
      text: z.string().check(z.maxLength(10_000)),
    }),
    store: { namespaces: [NOTES] },
    run: async ({ title, text }, { store }) => {
      await store.put(NOTES, keyOf(title), { title: title.trim(), text, savedAt: new Date().toISOString() });
      return `Saved the note '${title.trim()}'.`;
    },
  }),
  defineTool({
    name: 'recall',
    description: 'Find saved notes whose title or text contains every word of the query.',
    input: z.object({ query: z.string().check(z.maxLength(200)) }),
    store: { namespaces: [NOTES] },
    run: async ({ query }, { store }) => {
      const items = await store.search(NOTES, { query, limit: 5 });
      return items.map((item) => item.value as { title: string; text: string });
    },
  }),
  defineTool({
    name: 'list_notes',
    description: 'List the titles of all saved notes, newest first.',
    input: z.object({}),
    store: { namespaces: [NOTES] },
    run: async (_args, { store }) =>
      (await store.search(NOTES, { limit: 100 })).map((item) => (item.value as { title: string }).title),
  }),
  defineTool({
    name: 'delete_note',
    description: 'Delete a saved note by its title. A person must approve it first.',
    input: z.object({ title: z.string().check(z.minLength(1)) }),
    store: { namespaces: [NOTES] },
    needsApproval: true,
    run: async ({ title }, { store }) => {
      const key = keyOf(title);
      if (!(await store.get(NOTES, key))) throw new Error(`There is no note titled '${title}'`);
      await store.delete(NOTES, key);
      return `Deleted the note '${title}'.`;
    },
  }),
  defineTool({
    name: 'count_primes',
    description: 'Count the primes below n (up to 50,000,000) by trial division: CPU-heavy, reports progress.',
    input: z.object({ n: z.number().check(z.minimum(0), z.maximum(50_000_000)) }),
    async *run({ n }, { signal }) {
      let count = 0;
      const step = Math.max(1, Math.floor(n / 50));
      for (let i = 2; i < n; i++) {
        if (isPrime(i)) count++;
        if (i % step === 0) {
          signal.throwIfAborted();
          yield { progress: Math.round((i / n) * 100), found: count };
        }
      }
      return { n, primes: count };
    },
  }),
  defineTool({
    name: 'slow_echo',
    description: 'Repeat the text back one word at a time, slowly (shows streamed tool output).',
    input: z.object({ text: z.string().check(z.maxLength(2000)) }),
    idempotent: true,
    async *run({ text }, { signal }) {
      const words = text.split(/\s+/).filter(Boolean);
      for (const word of words) {
        await sleep(120, signal);
        yield `${word} `;
      }
      return text;
    },
  }),
  defineTool({
    name: 'fetch_url',
    description: 'Fetch a web page. (The demo pool denies tools the network, so this always fails: on purpose.)',
    input: z.object({ url: z.string() }),
    run: async ({ url }) => (await fetch(url)).text(),
  }),
  defineTool({
    name: 'busy_loop',
    description: 'Keep the worker busy for some seconds without yielding, like a hung tool (stopped after 3 s).',
    input: z.object({ seconds: z.number().check(z.minimum(0), z.maximum(600)) }),
    timeoutMs: 3_000,
    run: ({ seconds }) => {
      const end = Date.now() + seconds * 1000;
      let spins = 0;
      while (Date.now() < end) spins++;
      return `Spun ${spins} times`;
    },
  }),
  defineTool({
    name: 'hog_memory',
    description: 'Allocate memory without end (shows what a time limit does for the page).',
    input: z.object({}),
    // Without a limit, this takes down the sealed frame's process (the page lives on); with plain
    // workers (`?tools=plain`), which share the page's memory, the whole page.
    timeoutMs: 1_500,
    run: () => {
      const hoard: number[][] = [];
      for (;;) hoard.push(new Array(1e6).fill(7));
    },
  }),
]);
