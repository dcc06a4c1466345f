/**
 * `npm run bench [-- filter…]`: runs every benchmark case (browser cases in headless Chromium on a
 * cross-origin-isolated page, Node cases here), then writes bench/results.json and
 * bench/RESULTS.md with median, min–max and each figure's ratio to its anchor from the same run.
 * `BENCH_SAMPLES=1` also prints each browser case's samples and its anchor's, in the order taken.
 * The MCP cases call the test MCP server (test/mcp-server), started here for the browser cases and
 * named to the page by its `?mcp=` query.
 */
import { writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { build, preview } from 'vite';
import { chromiumLaunchOptions } from '../test/chromium.ts';
import { startMcpTestServer } from '../test/mcp-server/server.ts';
import { type BenchCase, type BenchResult, measure, measurePaired } from './case.ts';
import { firstLoadCases } from './first-load.ts';
import { derivations, nodeCases } from './node/index.ts';
import { sealedPoolProcesses } from './processes.ts';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const wanted = (name: string) => filters.length === 0 || filters.some((f) => name.includes(f));

type CaseInfo = Pick<BenchCase, 'name' | 'unit' | 'anchor' | 'target' | 'note'>;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function summarize(info: CaseInfo, samples: number[], where: BenchResult['where']): BenchResult {
  const result: BenchResult = {
    name: info.name,
    unit: info.unit,
    median: median(samples),
    min: Math.min(...samples),
    max: Math.max(...samples),
    samples: samples.length,
    where,
  };
  if (info.anchor) result.anchor = info.anchor;
  if (info.target) result.target = info.target;
  if (info.note) result.note = info.note;
  return result;
}

async function runBrowserCases(): Promise<{ results: BenchResult[]; isolated: boolean; browser: string }> {
  // The bench page is built as for production (workers bundled) and served cross-origin isolated.
  const configFile = `${root}vite.config.ts`;
  await build({ root, configFile, mode: 'bench', logLevel: 'error' });
  const server = await preview({
    root,
    configFile,
    mode: 'bench',
    build: { outDir: 'dist-bench' },
    preview: { port: 4174, strictPort: false },
    logLevel: 'error',
  });
  const address = server.resolvedUrls?.local[0] ?? 'http://localhost:4174/';
  const mcp = await startMcpTestServer();
  const browser = await chromium.launch(chromiumLaunchOptions());
  const results: BenchResult[] = [];
  let isolated = false;
  try {
    const context = await browser.newContext();
    const open = async () => {
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`  page error: ${e.message}`));
      page.on('console', (m) => console.log('  console:', m.text()));
      await page.goto(`${address}bench/index.html?mcp=${encodeURIComponent(mcp.url)}`);
      await page.waitForFunction(() => window.moatBench !== undefined, null, { timeout: 60_000 });
      return page;
    };
    const first = await open();
    isolated = await first.evaluate(() => window.moatBench.isolated);
    const all = await first.evaluate(() => window.moatBench.list());
    const names = new Set(all.map((c) => c.name));
    const list = all.filter((c) => wanted(c.name));
    if (wanted('pool/sealed-extra-processes')) {
      process.stdout.write('  pool/sealed-extra-processes … ');
      const rows = await sealedPoolProcesses(browser, first);
      results.push(...rows);
      console.log(rows.map((r) => `${format(r.median, r.unit)} ${r.unit}`).join(', '));
    }
    await first.close();
    if (['first-load/floor', 'first-load/pool', 'first-load/agent'].some(wanted)) {
      process.stdout.write('  first-load/… (fresh browser contexts) … ');
      const rows = await firstLoadCases(browser, root, configFile);
      results.push(...rows);
      console.log(rows.map((r) => `${r.name} ${format(r.median, r.unit)} ${r.unit}`).join(', '));
    }
    for (const info of list) {
      // A fresh page per case: no workers, databases or garbage left over from the one before.
      const page = await open();
      process.stdout.write(`  ${info.name} … `);
      const anchor = info.anchor && names.has(info.anchor) ? info.anchor : undefined;
      const paired = anchor
        ? await page.evaluate(([name, a]) => window.moatBench.runPaired(name, a), [info.name, anchor] as const)
        : { samples: await page.evaluate((name) => window.moatBench.run(name), info.name), anchorSamples: [] };
      if (process.env.BENCH_SAMPLES) {
        const list = (xs: number[]) => xs.map((x) => format(x, info.unit)).join(' ');
        process.stdout.write(`\n    samples: ${list(paired.samples)}\n`);
        if (paired.anchorSamples.length > 0) process.stdout.write(`    anchor:  ${list(paired.anchorSamples)}\n    `);
      }
      const result = summarize(info, paired.samples, 'browser');
      if (paired.anchorSamples.length > 0) {
        result.anchorMedian = median(paired.anchorSamples);
        result.pairRatio = median(paired.samples.map((x, i) => x / (paired.anchorSamples[i] as number)));
      }
      results.push(result);
      console.log(`${format(result.median, result.unit)} ${result.unit}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
    await mcp.close();
  }
  return { results, isolated, browser: browser.version() };
}

async function runNodeCases(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const c of nodeCases.filter((x) => wanted(x.name))) {
    process.stdout.write(`  ${c.name} … `);
    // Each case starts from a collected heap: garbage left by the one before is not its cost.
    (globalThis as { gc?: () => void }).gc?.();
    const anchor = c.anchor ? nodeCases.find((x) => x.name === c.anchor) : undefined;
    const paired = anchor ? await measurePaired(c, anchor) : { samples: await measure(c), anchorSamples: [] };
    const result = summarize(c, paired.samples, 'node');
    if (paired.anchorSamples.length > 0) result.anchorMedian = median(paired.anchorSamples);
    results.push(result);
    console.log(`${format(result.median, result.unit)} ${result.unit}`);
  }
  return results;
}

function format(value: number, unit: string): string {
  if (unit === 'ops/s' || unit === 'count') return Math.round(value).toLocaleString('en-US');
  if (unit === 'MB') return value.toFixed(1);
  if (unit === 'x') return value.toFixed(2);
  if (value >= 100) return value.toFixed(0);
  if (value >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

function withRatios(results: BenchResult[]): BenchResult[] {
  const byName = new Map(results.map((r) => [r.name, r]));
  for (const r of results) {
    // The anchor's samples taken alternately with this case's, when there are some; else its own row.
    const base = r.anchorMedian ?? (r.anchor ? byName.get(r.anchor)?.median : undefined);
    if (base === undefined || base === 0) continue;
    r.ratio = r.median / base;
  }
  return results;
}

function verdict(r: BenchResult): string {
  if (!r.target) return '';
  // A target on a case with no anchor applies to its own figure (a count of long tasks, say).
  const value = r.target.of === 'median' ? r.median : (r.ratio ?? (r.anchor ? undefined : r.median));
  if (value === undefined) return '';
  const { max, min } = r.target;
  const ok = (max === undefined || value <= max) && (min === undefined || value >= min);
  const unit = r.target.of === 'median' ? ` ${r.unit}` : '';
  const goal = [min !== undefined ? `≥ ${min}${unit}` : '', max !== undefined ? `≤ ${max}${unit}` : '']
    .filter(Boolean)
    .join(', ');
  return `${goal} ${ok ? '✅' : '❌'}`;
}

function markdown(results: BenchResult[], meta: { isolated: boolean; browser: string; date: string }): string {
  const lines = [
    '# Benchmark results',
    '',
    `Written by \`npm run bench\` on ${meta.date}. Browser cases: headless Chromium ${meta.browser}` +
      `${meta.isolated ? ', cross-origin isolated (fine-grained timers)' : ', NOT cross-origin isolated (100 µs timers)'};` +
      ` Node cases: Node ${process.version}. Each figure is the median of the case's repetitions.`,
    '',
    "Ratio = median ÷ the anchor's median (for `ops/s`, ours ÷ anchor, so higher is better). The anchor is sampled alternately with the case, in the same page or process, which goes first flipping every pair, so drift and leftovers land on both; `anchor median` is that paired figure (the anchor's own row is its standalone run). Targets are judged on the ratio.",
    '',
    "Pair ratio = the median of each sample's ratio to the anchor sample taken beside it. This machine moves between states in mid-run (the raw postMessage round trip reads ≈35 µs for a while, then ≈100 µs, then back), and both sides of a pair see the same state; the ratio of medians can land each median in a different state.",
    '',
    '| case | unit | median | min – max | anchor | anchor median | ratio | pair ratio | target | how |',
    '|---|---|---:|---:|---|---:|---:|---:|---|---|',
  ];
  for (const r of results) {
    lines.push(
      `| \`${r.name}\` | ${r.unit} | ${format(r.median, r.unit)} | ${format(r.min, r.unit)} – ${format(r.max, r.unit)} | ${r.anchor ? `\`${r.anchor}\`` : ''} | ${r.anchorMedian === undefined ? '' : format(r.anchorMedian, r.unit)} | ${r.ratio === undefined ? '' : r.ratio.toFixed(3)} | ${r.pairRatio === undefined ? '' : r.pairRatio.toFixed(3)} | ${verdict(r)} | ${r.where}: ${r.note ?? ''} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const date = new Date().toISOString();
// Node cases first, on a quiet machine (a browser shutting down is not quiet).
console.log('Node cases:');
const nodeResults = await runNodeCases();
console.log('Browser cases (headless Chromium):');
const browserRun = await runBrowserCases();
if (!browserRun.isolated) console.warn('  warning: the bench page is not cross-origin isolated; timers are coarse');
const measured = withRatios([...browserRun.results, ...nodeResults]);
const results = [...measured, ...derivations.flatMap((derive) => derive(measured))];
if (filters.length > 0) {
  // A partial run would mix figures from different runs: print, do not write.
  for (const r of results)
    console.log(
      `${r.name}\t${format(r.median, r.unit)} ${r.unit}${r.ratio === undefined ? '' : `\tratio ${r.ratio.toFixed(3)}`}${r.pairRatio === undefined ? '' : `\tpair ratio ${r.pairRatio.toFixed(3)}`}`,
    );
  console.log('\nFiltered run: bench/results.json and RESULTS.md left as they were.');
  process.exit(0);
}
writeFileSync(
  `${root}bench/results.json`,
  `${JSON.stringify(
    results.map(({ name, unit, median, min, max, anchor, anchorMedian, ratio, pairRatio }) => ({
      name,
      unit,
      median,
      min,
      max,
      anchor,
      anchorMedian,
      ratio,
      pairRatio,
    })),
    null,
    2,
  )}\n`,
);
writeFileSync(
  `${root}bench/RESULTS.md`,
  markdown(results, { isolated: browserRun.isolated, browser: browserRun.browser, date }),
);
console.log(`\nWrote bench/results.json and bench/RESULTS.md (${results.length} cases).`);
