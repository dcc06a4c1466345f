/**
 * Bytes a page downloads before it can chat: an app entry built for production (minified, ES
 * modules), counting the entry chunk and the chunks it imports statically, each gzipped. Chunks
 * loaded only on demand (inline-tool support, say) are not counted.
 */
import { gzipSync } from 'node:zlib';
import { build } from 'vite';
import type { BenchCase } from '../case';

const root = new URL('../..', import.meta.url).pathname;

interface Chunk {
  type: 'chunk' | 'asset';
  fileName: string;
  code?: string;
  isEntry?: boolean;
  imports?: string[];
}

async function gzippedBytes(entry: string): Promise<number> {
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
  const chunks = new Map(output.output.filter((c) => c.type === 'chunk').map((c) => [c.fileName, c]));
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

export const bundleCases: BenchCase[] = [
  sizeCase('peer/ai-sdk-streamtext-gz', 'bench/bundle/ai-sdk-app.ts', {
    note: 'bytes (min+gzip) of a page importing the Vercel AI SDK streamText and tool, with zod for the tool schema',
  }),
  sizeCase('bundle/main-gz', 'bench/bundle/moat-app.ts', {
    anchor: 'peer/ai-sdk-streamtext-gz',
    target: { max: 15_360, of: 'median' },
    note: 'bytes (min+gzip) a page loads to import createAgent, openAICompatible, createWorkerPool and openIndexedDBStore (inline-tool support, loaded on demand, not counted); ratio = ours ÷ the AI SDK; target ≤ 15 KB',
  }),
];
