/**
 * Bytes a page downloads before it can chat: an app entry built for production (minified, ES
 * modules), counting the entry chunk and the chunks it imports statically, each gzipped. Chunks
 * loaded only on demand (inline-tool support, say) are not counted.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { BenchCase } from '../case';

const root = new URL('../..', import.meta.url).pathname;

export interface Chunk {
  type: 'chunk' | 'asset';
  fileName: string;
  code?: string;
  isEntry?: boolean;
  imports?: string[];
  /** Each module's rendered size in the chunk (bundle-breakdown.ts prints them). */
  modules?: Record<string, { renderedLength: number }>;
}

/** The chunks of `entry` built as a page's app would be (Vite, minified, ES modules), by file name. */
export async function chunksOf(entry: string): Promise<Map<string, Chunk>> {
  const result = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    build: {
      write: false,
      minify: true,
      target: 'es2022',
      lib: { entry: `${root}${entry}`, formats: ['es'], fileName: 'app' },
    },
  });
  const output = (Array.isArray(result) ? result[0] : result) as { output: Chunk[] };
  return new Map(output.output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
}

async function gzippedBytes(entry: string): Promise<number> {
  const chunks = await chunksOf(entry);
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    for (const next of chunks.get(name)?.imports ?? []) visit(next);
  };
  for (const c of chunks.values()) if (c.isEntry) visit(c.fileName);
  let bytes = 0;
  for (const name of seen) bytes += gzipSync(chunks.get(name)?.code ?? '', { level: 9 }).length;
  return bytes;
}

function sizeCase(name: string, entry: string, extra: Partial<BenchCase>): BenchCase {
  return {
    name,
    unit: 'count',
    repeat: 5,
    warmup: 0,
    async setup() {
      const bytes = await gzippedBytes(entry);
      return { sample: () => bytes };
    },
    ...extra,
  };
}

/**
 * The local model's code in an app that does not import moat-sdk/local: the bytes of every chunk of the
 * build (loaded at once or on demand) that holds wllama or moat-sdk/local (their names survive
 * minification as strings: wllama's worker code, LocalModelError's registered name).
 */
async function localBytesIn(entry: string): Promise<number> {
  let bytes = 0;
  for (const chunk of (await chunksOf(entry)).values())
    if (/wllama|LocalModelError/.test(chunk.code ?? '')) bytes += gzipSync(chunk.code ?? '', { level: 9 }).length;
  return bytes;
}

export const bundleCases: BenchCase[] = [
  sizeCase('peer/ai-sdk-streamtext-gz', 'bench/bundle/ai-sdk-app.ts', {
    note: 'bytes (min+gzip) of a page importing the Vercel AI SDK streamText and tool, with zod for the tool schema',
  }),
  sizeCase('bundle/main-gz', 'bench/bundle/moat-app.ts', {
    anchor: 'peer/ai-sdk-streamtext-gz',
    // #43: at most a quarter of the AI SDK's app, in the same run.
    target: { max: 0.25 },
    note: "bytes (min+gzip) a page loads to import createAgent, openAICompatible, createWorkerPool and openIndexedDBStore (chunks loaded on demand, such as inline-tool support, not counted; `npx tsx bench/node/bundle-breakdown.ts` lists them); ratio = ours ÷ the AI SDK's app; target ≤ 0.25×",
  }),
  {
    name: 'bundle/local-in-main-gz',
    unit: 'count',
    repeat: 5,
    warmup: 0,
    target: { max: 0, of: 'median' },
    note: "bytes (min+gzip) of the local model's code (wllama, moat-sdk/local) in the same app's whole build, chunks loaded on demand included: an app that does not import moat-sdk/local pays nothing for it",
    async setup() {
      const bytes = await localBytesIn('bench/bundle/moat-app.ts');
      return { sample: () => bytes };
    },
  },
  sizeCase('bundle/local-gz', 'bench/bundle/local-app.ts', {
    note: "bytes (min+gzip) a page loads to import localModel (wllama's JavaScript and its worker code, moat-sdk/local; the 10 MB wasm is fetched when a model loads and not counted)",
  }),
];
