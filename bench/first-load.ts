/**
 * First load (#43, item 5): from navigation in a fresh browser context (no HTTP cache, no page
 * of the site open before) to a page's first result. Each page is built on its own, as an app
 * would be (bench/first-load/*.html, production build, one entry), and served by a plain static
 * server with no special headers (not cross-origin isolated, as most apps are). Each sample opens
 * a new context and navigates once; the page times itself from the navigation's start.
 *
 * - `first-load/floor`: the least a sealed start of the tools module costs a page, loaded the same
 *   way: a page of a few lines fetches the pool page's tools module while a bare sandboxed frame
 *   (the sealed CSP) starts, and the frame's blob worker imports it.
 * - `first-load/pool`: createWorkerPool from moat-sdk's front door, to its first result.
 * - `first-load/agent`: createAgent over such a pool and a scripted model (no network), to the
 *   run's first tool-finished.
 *
 * The three are sampled in turn (the order rotating each round), so drift lands on each alike.
 */
import { resolve } from 'node:path';
import type { Browser } from '@playwright/test';
import { build, preview } from 'vite';
import type { BenchResult } from './case.ts';
import type { FirstLoad } from './first-load/report.ts';

const PAGES = ['floor', 'pool', 'agent'] as const;
type PageName = (typeof PAGES)[number];
// Under the bench page's own output (ignored by git), built after it (its build empties dist-bench).
const OUT = 'dist-bench/first-load';
const WARMUP = 2;
const REPEAT = 15;

const NOTES: Record<PageName, string> = {
  floor:
    "navigation in a fresh browser context to a bare sealed frame's worker having imported the pool page's tools module (moat-sdk/worker, zod/mini, the tools), fetched while the frame starts: the floor of a first sealed start of these tools (a page of a few lines, its own build, a plain static server)",
  pool: 'navigation in a fresh browser context to the first result of createWorkerPool({ worker: url }) (imported from moat-sdk, sealed, one noop call): the page loads its code, reads the tools module and its graph, starts the frame and its worker, handshake, describe, the call',
  agent:
    "navigation in a fresh browser context to an agent's first tool-finished: createAgent over the same pool, a scripted model asking for one noop call (no network), imported from moat-sdk",
};

/** Each page built alone, as an app with that one entry is. */
async function buildPages(root: string, configFile: string): Promise<void> {
  for (const name of PAGES)
    await build({
      root,
      configFile,
      mode: 'bench',
      logLevel: 'error',
      build: {
        outDir: `${OUT}/${name}`,
        emptyOutDir: true,
        rolldownOptions: { input: resolve(root, `bench/first-load/${name}.html`) },
      },
    });
}

async function load(browser: Browser, url: string): Promise<FirstLoad> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    page.on('pageerror', (e) => console.error(`  page error: ${e.message}`));
    await page.goto(url);
    const done = await page.waitForFunction(() => window.firstLoad, null, { timeout: 60_000 });
    return (await done.jsonValue()) as FirstLoad;
  } finally {
    await context.close();
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

/** Where a page's time went, median over its samples: its code running, each file fetched (by name, start and end). */
function detail(name: PageName, loads: FirstLoad[]): string {
  const files = new Map<string, { start: number[]; end: number[]; bytes: number }>();
  for (const l of loads)
    for (const r of l.resources) {
      const file = r.name.replace(/^.*\//, '').replace(/\?.*$/, '');
      const row = files.get(file) ?? { start: [], end: [], bytes: r.bytes };
      row.start.push(r.start);
      row.end.push(r.end);
      files.set(file, row);
    }
  const lines = [
    `    ${name}: first result ${median(loads.map((l) => l.ms)).toFixed(1)} ms, code running ${median(loads.map((l) => l.codeReady)).toFixed(1)} ms`,
  ];
  const marks = new Map<string, number[]>();
  for (const l of loads) for (const m of l.marks) marks.set(m.name, [...(marks.get(m.name) ?? []), m.at]);
  for (const [mark, at] of marks) lines.push(`      mark ${mark}: ${median(at).toFixed(1)} ms`);
  for (const [file, row] of files)
    lines.push(`      ${file} (${row.bytes} B): ${median(row.start).toFixed(1)} – ${median(row.end).toFixed(1)} ms`);
  return lines.join('\n');
}

/** Build, serve and sample the three pages; rows for bench/run.ts's table. */
export async function firstLoadCases(browser: Browser, root: string, configFile: string): Promise<BenchResult[]> {
  await buildPages(root, configFile);
  const server = await preview({
    root,
    configFile,
    mode: 'bench',
    logLevel: 'error',
    build: { outDir: OUT },
    // What most apps get: no cross-origin isolation (the bench page's headers, turned off).
    preview: {
      port: 4175,
      strictPort: false,
      headers: { 'Cross-Origin-Opener-Policy': 'unsafe-none', 'Cross-Origin-Embedder-Policy': 'unsafe-none' },
    },
  });
  const address = server.resolvedUrls?.local[0] ?? 'http://localhost:4175/';
  const url = (name: PageName) => `${address}${name}/bench/first-load/${name}.html`;
  const loads: Record<PageName, FirstLoad[]> = { floor: [], pool: [], agent: [] };
  try {
    for (let round = 0; round < WARMUP + REPEAT; round++)
      for (let i = 0; i < PAGES.length; i++) {
        const name = PAGES[(round + i) % PAGES.length] as PageName;
        const measured = await load(browser, url(name));
        if (round >= WARMUP) loads[name].push(measured);
      }
  } finally {
    await server.close();
  }
  if (process.env.BENCH_SAMPLES) {
    process.stdout.write('\n');
    for (const name of PAGES) {
      console.log(`    ${name} samples: ${loads[name].map((l) => l.ms.toFixed(1)).join(' ')}`);
      console.log(detail(name, loads[name]));
    }
  }
  const floor = loads.floor.map((l) => l.ms);
  return PAGES.map((name) => {
    const samples = loads[name].map((l) => l.ms);
    const row: BenchResult = {
      name: `first-load/${name}`,
      unit: 'ms',
      median: median(samples),
      min: Math.min(...samples),
      max: Math.max(...samples),
      samples: samples.length,
      where: 'browser',
      note: NOTES[name],
    };
    // Proposed, as for pool/cold-start-vs-tools: the pool's own stages within a quarter of the floor.
    if (name === 'pool') row.target = { max: 1.25 };
    if (name !== 'floor') {
      row.anchor = 'first-load/floor';
      row.anchorMedian = median(floor);
      // Samples of one round are taken one after another: each pairs with the floor of its round.
      row.pairRatio = median(samples.map((x, i) => x / (floor[i] as number)));
    }
    return row;
  });
}
