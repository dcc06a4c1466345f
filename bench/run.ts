/**
 * `npm run bench [-- filter…]`: runs every benchmark case (browser cases in headless Chromium on a
 * cross-origin-isolated page, Node cases here), then writes bench/results.json and
 * bench/RESULTS.md with median, min–max and each figure's ratio to its anchor from the same run.
 */
import { writeFileSync } from 'node:fs';
import { chromium } from '@playwright/test';
import { build, preview } from 'vite';
import { chromiumLaunchOptions } from '../test/chromium.ts';
import { type BenchCase, type BenchResult, measure } from './case.ts';
import { derivations, nodeCases } from './node/index.ts';

const root = new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const wanted = (name: string) => filters.length === 0 || filters.some((f) => name.includes(f));

type CaseInfo = Pick<BenchCase, 'name' | 'unit' | 'anchor' | 'target' | 'note'>;

function summarize(info: CaseInfo, samples: number[], where: BenchResult['where']): BenchResult {
  const sorted = [...samples].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median =
    sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
  const result: BenchResult = {
    name: info.name,
    unit: info.unit,
    median,
    min: sorted[0] as number,
    max: sorted[sorted.length - 1] as number,
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
  const browser = await chromium.launch(chromiumLaunchOptions());
  const results: BenchResult[] = [];
  let isolated = false;
  try {
    const context = await browser.newContext();
    const open = async () => {
      const page = await context.newPage();
      page.on('pageerror', (e) => console.error(`  page error: ${e.message}`));
      page.on('console', (m) => console.log('  console:', m.text()));
      await page.goto(`${address}bench/index.html`);
      await page.waitForFunction(() => window.moatBench !== undefined, null, { timeout: 60_000 });
      return page;
    };
    const first = await open();
    isolated = await first.evaluate(() => window.moatBench.isolated);
    const list = (await first.evaluate(() => window.moatBench.list())).filter((c) => wanted(c.name));
    await first.close();
    for (const info of list) {
      // A fresh page per case: no workers, databases or garbage left over from the one before.
      const page = await open();
      process.stdout.write(`  ${info.name} … `);
      const samples = await page.evaluate((name) => window.moatBench.run(name), info.name);
      const result = summarize(info, samples, 'browser');
      results.push(result);
      console.log(`${format(result.median, result.unit)} ${result.unit}`);
      await page.close();
    }
  } finally {
    await browser.close();
    await server.close();
  }
  return { results, isolated, browser: browser.version() };
}

async function runNodeCases(): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const c of nodeCases.filter((x) => wanted(x.name))) {
    process.stdout.write(`  ${c.name} … `);
    const result = summarize(c, await measure(c), 'node');
    results.push(result);
    console.log(`${format(result.median, result.unit)} ${result.unit}`);
  }
  return results;
}

function format(value: number, unit: string): string {
  if (unit === 'ops/s' || unit === 'count') return Math.round(value).toLocaleString('en-US');
  if (unit === 'x') return value.toFixed(2);
  if (value >= 100) return value.toFixed(0);
  if (value >= 1) return value.toFixed(2);
  return value.toPrecision(3);
}

function withRatios(results: BenchResult[]): BenchResult[] {
  const byName = new Map(results.map((r) => [r.name, r]));
  for (const r of results) {
    const anchor = r.anchor ? byName.get(r.anchor) : undefined;
    if (!anchor || anchor.median === 0) continue;
    r.ratio = r.median / anchor.median;
  }
  return results;
}

function verdict(r: BenchResult): string {
  if (!r.target) return '';
  // A target on a case with no anchor applies to its own figure (a count of long tasks, say).
  const value = r.ratio ?? (r.anchor ? undefined : r.median);
  if (value === undefined) return '';
  const { max, min } = r.target;
  const ok = (max === undefined || value <= max) && (min === undefined || value >= min);
  const goal = [min !== undefined ? `≥ ${min}` : '', max !== undefined ? `≤ ${max}` : ''].filter(Boolean).join(', ');
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
    "Ratio = median ÷ the anchor's median from the same run (for `ops/s`, ours ÷ anchor, so higher is better).",
    '',
    '| case | unit | median | min – max | anchor | ratio | target | how |',
    '|---|---|---:|---:|---|---:|---|---|',
  ];
  for (const r of results) {
    lines.push(
      `| \`${r.name}\` | ${r.unit} | ${format(r.median, r.unit)} | ${format(r.min, r.unit)} – ${format(r.max, r.unit)} | ${r.anchor ? `\`${r.anchor}\`` : ''} | ${r.ratio === undefined ? '' : r.ratio.toFixed(3)} | ${verdict(r)} | ${r.where}: ${r.note ?? ''} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

const date = new Date().toISOString();
console.log('Browser cases (headless Chromium):');
const browserRun = await runBrowserCases();
if (!browserRun.isolated) console.warn('  warning: the bench page is not cross-origin isolated; timers are coarse');
console.log('Node cases:');
const nodeResults = await runNodeCases();
const measured = withRatios([...browserRun.results, ...nodeResults]);
const results = [...measured, ...derivations.flatMap((derive) => derive(measured))];
if (filters.length > 0) {
  // A partial run would mix figures from different runs: print, do not write.
  for (const r of results)
    console.log(
      `${r.name}\t${format(r.median, r.unit)} ${r.unit}${r.ratio === undefined ? '' : `\tratio ${r.ratio.toFixed(3)}`}`,
    );
  console.log('\nFiltered run: bench/results.json and RESULTS.md left as they were.');
  process.exit(0);
}
writeFileSync(
  `${root}bench/results.json`,
  `${JSON.stringify(
    results.map(({ name, unit, median, min, max, anchor, ratio }) => ({ name, unit, median, min, max, anchor, ratio })),
    null,
    2,
  )}\n`,
);
writeFileSync(
  `${root}bench/RESULTS.md`,
  markdown(results, { isolated: browserRun.isolated, browser: browserRun.browser, date }),
);
console.log(`\nWrote bench/results.json and bench/RESULTS.md (${results.length} cases).`);
