/**
 * The package as users get it: builds the library, packs it (`npm pack`), installs the tarball
 * into a fresh Vite app (test/consumer, copied to a temporary folder outside the repository, so
 * nothing resolves from the repository's own node_modules), type-checks the app against the
 * installed types, builds it with Vite, serves the build with a plain static server, and runs
 * its agent (a worker tool, `scriptedModel`, no network) in Chromium: the tool's result must
 * reach the page. `node --import tsx scripts/test-package.ts` (`npm run test:package`); exits 1
 * at the first step that fails, keeping the app's folder to look at.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, createReadStream, mkdtempSync, renameSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, extname, join, normalize, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { chromiumLaunchOptions } from '../test/chromium.ts';
import { startMcpTestServer } from '../test/mcp-server/server.ts';

const root = resolve(import.meta.dirname, '..');
const app = mkdtempSync(join(tmpdir(), 'moat-consumer-'));
const started = performance.now();

/** Runs one command; on failure, prints what it said and stops with exit code 1. */
function run(title: string, argv: readonly [string, ...string[]], cwd: string): string {
  const t0 = performance.now();
  const [command, ...args] = argv;
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const seconds = ((performance.now() - t0) / 1000).toFixed(1);
  if (result.status !== 0) {
    process.stdout.write(result.stdout ?? '');
    process.stderr.write(result.stderr ?? '');
    fail(`${title} failed (${argv.join(' ')} in ${cwd}, ${seconds} s)`);
  }
  console.log(`✓ ${title} (${seconds} s)`);
  return result.stdout;
}

function fail(message: string): never {
  console.error(`✗ ${message}\n  the app is kept in ${app}`);
  process.exit(1);
}

run('library build', ['npm', 'run', 'build'], root);
const packed = JSON.parse(run('npm pack', ['npm', 'pack', '--json', '--pack-destination', app], root)) as {
  filename: string;
}[];
const tarball = packed[0]?.filename;
if (!tarball) fail('npm pack named no tarball');
renameSync(join(app, basename(tarball)), join(app, 'moat.tgz'));

cpSync(join(root, 'test/consumer'), app, {
  recursive: true,
  filter: (from) => !/[/\\](node_modules|dist)$|\.tgz$|package-lock\.json$/.test(from),
});
run('npm install of the tarball', ['npm', 'install', '--prefer-offline', '--no-audit', '--no-fund'], app);
run('tsc --noEmit against the installed types', [join(app, 'node_modules/.bin/tsc'), '--noEmit'], app);
run('vite build', [join(app, 'node_modules/.bin/vite'), 'build'], app);

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};
const site = join(app, 'dist');
// A plain static host, as GitHub Pages is: no special headers but CORS to any origin (a sealed
// worker's frame loads its tools module from an opaque origin).
const server = createServer((req, res) => {
  let file = normalize(join(site, decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname)));
  if (!file.startsWith(site)) return void res.writeHead(403).end();
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    statSync(file);
  } catch {
    return void res.writeHead(404).end('Not found');
  }
  res.writeHead(200, {
    'access-control-allow-origin': '*',
    'content-type': TYPES[extname(file)] ?? 'application/octet-stream',
  });
  createReadStream(file).pipe(res);
});
await new Promise<void>((ready) => server.listen(0, '127.0.0.1', ready));
const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;

const mcp = await startMcpTestServer();
const browser = await chromium.launch(chromiumLaunchOptions());
const problems: string[] = [];
let outcome:
  | { state: string | undefined; tool: string; answer: string; error: string; mcp: string; oauth: string }
  | undefined;
try {
  const page = await browser.newPage();
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  await page.goto(`${url}?mcp=${encodeURIComponent(mcp.url)}`);
  await page.waitForSelector('body[data-state]', { timeout: 30_000 }).catch(() => undefined);
  outcome = await page.evaluate(() => ({
    state: document.body.dataset.state,
    spec: document.getElementById('spec')?.textContent ?? '',
    pool: document.getElementById('pool')?.textContent ?? '',
    tool: document.getElementById('tool')?.textContent ?? '',
    answer: document.getElementById('answer')?.textContent ?? '',
    error: document.getElementById('error')?.textContent ?? '',
    mcp: document.getElementById('mcp')?.textContent ?? '',
    oauth: document.getElementById('oauth')?.textContent ?? '',
  }));
} finally {
  await browser.close();
  server.close();
  await mcp.close();
}

const expected = {
  state: 'done',
  spec: 'multiply',
  pool: '6',
  tool: '42',
  answer: '6 x 7 = 42',
  error: '',
  mcp: 'echo: from the package',
  oauth: 'echo: signed in',
};
if (JSON.stringify(outcome) !== JSON.stringify(expected)) {
  fail(
    `the agent in the built app: expected ${JSON.stringify(expected)}, got ${JSON.stringify(outcome)}` +
      (problems.length ? `\n  ${problems.join('\n  ')}` : ''),
  );
}
console.log(`✓ the agent's worker tool, an MCP server's tool and one behind OAuth answered in Chromium (${url})`);
rmSync(app, { recursive: true, force: true });
console.log(`package test passed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
