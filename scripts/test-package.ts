/**
 * The package as users get it: builds the library, packs it (`npm pack`), and installs the
 * tarball into fresh apps, one per bundler (test/consumers/<app>, each copied to a temporary
 * folder outside the repository, so the package resolves from the app's own node_modules):
 * Vite, webpack 5, esbuild, and a React app (esbuild) on `useChat`. Each app is type-checked
 * against the installed types where it has a tsconfig.json, built for production (and, but for
 * the React app, as a developer runs it: Vite's dev server, webpack's development mode, esbuild
 * unminified), served by a plain static server (no special headers), and loaded in Chromium,
 * where its sealed tool must answer. docs/bundlers.md shows the apps' lines.
 * The bundlers, TypeScript and React come from this repository's node_modules (one copy, no
 * download per run); only the tarball (with its dependencies) is installed into each app.
 *
 * `node --import tsx scripts/test-package.ts [app…]` (`npm run test:package`; name apps to run
 * only those); exits 1 at the first step that fails, keeping the apps' folder to look at.
 */
import { spawn } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  createReadStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { basename, dirname, extname, join, normalize, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type Browser, chromium } from '@playwright/test';
import esbuild from 'esbuild';
import { createServer as createViteServer, build as viteBuild } from 'vite';
import webpack from 'webpack';
import { chromiumLaunchOptions } from '../test/chromium.ts';
import { startMcpTestServer } from '../test/mcp-server/server.ts';

const root = resolve(import.meta.dirname, '..');
const work = mkdtempSync(join(tmpdir(), 'moat-consumers-'));
const started = performance.now();

/** A production build, or what a developer runs while working (Vite's dev server, an unminified build). */
type Mode = 'production' | 'development';

/** Where an app's page is served, and how to stop serving it. */
interface Site {
  url: string;
  close: () => Promise<void> | void;
}

/** One app: its bundler, what it borrows from this repository, and what its page must show. */
interface Consumer {
  /** Builds the app in `mode` and serves it (or, Vite in development, serves it from its dev server). */
  start: (dir: string, mode: Mode) => Promise<Site>;
  modes: readonly Mode[];
  /** Packages linked from this repository's node_modules into the app's (after the install). */
  links: readonly string[];
  /** The page's outputs (element ids) and their text once `body[data-state]` is set. */
  expected: Record<string, string>;
}

const TOOL_RESULT = { state: 'done', tool: '42', error: '' };

const CONSUMERS: Record<string, Consumer> = {
  vite: {
    start: startVite,
    modes: ['production', 'development'],
    links: ['vite'],
    expected: {
      state: 'done',
      spec: 'multiply',
      pool: '6',
      tool: '42',
      answer: '6 x 7 = 42',
      error: '',
      mcp: 'echo: from the package',
      oauth: 'echo: signed in',
    },
  },
  webpack: { start: startWebpack, modes: ['production', 'development'], links: [], expected: TOOL_RESULT },
  esbuild: { start: startEsbuild, modes: ['production', 'development'], links: [], expected: TOOL_RESULT },
  react: {
    start: startEsbuild,
    modes: ['production'],
    links: ['react', 'react-dom', '@types/react', '@types/react-dom'],
    expected: { ...TOOL_RESULT, answer: '6 x 7 = 42' },
  },
};

/** Vite: index.html is the entry; `vite build` writes dist/, `vite` serves the sources. */
async function startVite(dir: string, mode: Mode): Promise<Site> {
  if (mode === 'production') {
    await viteBuild({ root: dir, logLevel: 'warn' });
    return serve(join(dir, 'dist'));
  }
  const server = await createViteServer({ root: dir, logLevel: 'warn', server: { host: '127.0.0.1', port: 0 } });
  await server.listen();
  const url = server.resolvedUrls?.local[0];
  if (!url) throw new Error("Vite's dev server gave no address");
  return { url, close: () => server.close() };
}

/** webpack 5: the app's webpack.config.js, as `webpack --mode <mode>` would run it; the page copied beside the bundle. */
async function startWebpack(dir: string, mode: Mode): Promise<Site> {
  const config = (await import(pathToFileURL(join(dir, 'webpack.config.js')).href)).default as webpack.Configuration;
  const outDir = join(dir, `dist-${mode}`);
  const compiler = webpack({ ...config, mode, output: { ...config.output, path: outDir } });
  const stats = await new Promise<webpack.Stats | undefined>((done, failed) =>
    compiler.run((error, result) => (error ? failed(error) : done(result))),
  );
  await new Promise((closed) => compiler.close(closed));
  if (!stats || stats.hasErrors()) throw new Error(stats?.toString('errors-only') ?? 'webpack gave no stats');
  copyFileSync(join(dir, 'index.html'), join(outDir, 'index.html'));
  return serve(outDir);
}

/**
 * esbuild: the app's esbuild.config.js (its options), as a build script would pass them,
 * unminified in development; the page copied beside the bundles.
 */
async function startEsbuild(dir: string, mode: Mode): Promise<Site> {
  const options = (await import(pathToFileURL(join(dir, 'esbuild.config.js')).href)).default as esbuild.BuildOptions;
  const outDir = join(dir, `dist-${mode}`);
  await esbuild.build({ ...options, minify: mode === 'production', outdir: outDir, logLevel: 'warning' });
  copyFileSync(join(dir, 'index.html'), join(outDir, 'index.html'));
  return serve(outDir);
}

/** Runs one step, printing how long it took; on failure, prints why and stops with exit code 1. */
async function step<T>(title: string, task: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  try {
    const result = await task();
    console.log(`✓ ${title} (${seconds(t0)} s)`);
    return result;
  } catch (error) {
    fail(`${title} failed (${seconds(t0)} s): ${error instanceof Error ? (error.stack ?? error.message) : error}`);
  }
}

/** One command, its output returned; rejects with what it said when it fails. */
function run(argv: readonly [string, ...string[]], cwd: string): Promise<string> {
  const [command, ...args] = argv;
  return new Promise((done, failed) => {
    const child = spawn(command, args, { cwd });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
    });
    child.stderr.on('data', (chunk) => {
      out += chunk;
    });
    child.on('error', failed);
    child.on('close', (code) => (code === 0 ? done(out) : failed(new Error(`${argv.join(' ')} in ${cwd}:\n${out}`))));
  });
}

function seconds(since: number): string {
  return ((performance.now() - since) / 1000).toFixed(1);
}

function fail(message: string): never {
  console.error(`✗ ${message}\n  the apps are kept in ${work}`);
  process.exit(1);
}

/** The app copied out of the repository, the tarball installed into it, this repository's tools linked in. */
async function install(name: string, tarball: string): Promise<string> {
  const dir = join(work, name);
  cpSync(join(root, 'test/consumers', name), dir, {
    recursive: true,
    filter: (from) => !/[/\\](node_modules|dist)$|\.tgz$|package-lock\.json$/.test(from),
  });
  await run(['npm', 'install', '--prefer-offline', '--no-audit', '--no-fund', tarball], dir);
  // After the install: npm removes what its package.json does not list.
  for (const link of CONSUMERS[name]?.links ?? []) {
    const to = join(dir, 'node_modules', link);
    mkdirSync(dirname(to), { recursive: true });
    symlinkSync(join(root, 'node_modules', link), to, 'dir');
  }
  return dir;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.map': 'application/json',
};

/**
 * A plain static host of `site`, as GitHub Pages is: no special headers but CORS to any origin
 * (a sealed worker's frame loads its tools module from an opaque origin).
 */
async function serve(site: string): Promise<Site> {
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
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, close: () => void server.close() };
}

/** The page's outputs once it says it is done (or after 30 s), with what went wrong on the way. */
async function readPage(browser: Browser, url: string, ids: readonly string[]) {
  const problems: string[] = [];
  const page = await browser.newPage();
  try {
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // A failed load is read from its response below, which names the file (this line does not).
      if (message.type() === 'error' && !message.text().startsWith('Failed to load resource'))
        problems.push(`console: ${message.text()}`);
    });
    // A file of the app's own that is missing (the browser's own /favicon.ico aside: the apps have none).
    page.on('response', (response) => {
      const at = new URL(response.url());
      if (response.status() >= 400 && at.origin === new URL(url).origin && at.pathname !== '/favicon.ico')
        problems.push(`HTTP ${response.status()} for ${at.pathname}`);
    });
    await page.goto(url);
    await page.waitForSelector('body[data-state]', { timeout: 30_000 }).catch(() => undefined);
    const outputs = await page.evaluate(
      (ids) =>
        Object.fromEntries(
          ids.map((id) => [
            id,
            id === 'state' ? document.body.dataset.state : document.getElementById(id)?.textContent,
          ]),
        ),
      ids,
    );
    return { outputs, problems };
  } finally {
    await page.close();
  }
}

const names = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(CONSUMERS);
for (const name of names)
  if (!CONSUMERS[name]) fail(`no app '${name}': the apps are ${Object.keys(CONSUMERS).join(', ')}`);

await step('library build', () => run(['npm', 'run', 'build'], root));
const tarball = await step('npm pack', async () => {
  const packed = JSON.parse(await run(['npm', 'pack', '--json', '--pack-destination', work], root)) as {
    filename: string;
  }[];
  const filename = packed[0]?.filename;
  if (!filename) throw new Error('npm pack named no tarball');
  return join(work, filename);
});
const dirs = await step(`npm install of the tarball into ${names.join(', ')}`, () =>
  Promise.all(names.map((name) => install(name, tarball))),
);
// The type checks run beside the builds and pages (other processes): awaited before the end.
const tsc = join(root, 'node_modules/.bin/tsc');
const typechecks = Promise.all(
  dirs
    .filter((dir) => existsSync(join(dir, 'tsconfig.json')))
    .map((dir) => step(`${basename(dir)}: tsc --noEmit against the installed types`, () => run([tsc, '-p', dir], dir))),
);

const mcp = names.includes('vite') ? await startMcpTestServer() : undefined;
const browser = await chromium.launch(chromiumLaunchOptions());
try {
  for (const [i, name] of names.entries()) {
    const { start, modes, expected } = CONSUMERS[name] as Consumer;
    for (const mode of modes) {
      const site = await step(`${name}: ${mode === 'production' ? 'production build' : 'development'}`, () =>
        start(dirs[i] as string, mode),
      );
      try {
        const url = mcp && name === 'vite' ? `${site.url}?mcp=${encodeURIComponent(mcp.url)}` : site.url;
        const { outputs, problems } = await step(`${name} (${mode}): the page in Chromium`, () =>
          readPage(browser, url, Object.keys(expected)),
        );
        if (JSON.stringify(outputs) !== JSON.stringify(expected))
          fail(
            `${name} (${mode}): expected ${JSON.stringify(expected)}, got ${JSON.stringify(outputs)}` +
              (problems.length ? `\n  ${problems.join('\n  ')}` : ''),
          );
        // The right outputs with errors on the way (an uncaught error, a console error) fail too.
        if (problems.length) fail(`${name} (${mode}): the page reported errors:\n  ${problems.join('\n  ')}`);
      } finally {
        await site.close();
      }
    }
  }
} finally {
  await browser.close();
  await mcp?.close();
}
await typechecks;
rmSync(work, { recursive: true, force: true });
console.log(`package test passed in ${seconds(started)} s (${names.join(', ')})`);
