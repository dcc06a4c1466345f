/// <reference types="vitest/config" />
import { resolve } from 'node:path';
import { playwright } from '@vitest/browser-playwright';
import type { Connect, Plugin } from 'vite';
import { defineConfig } from 'vite';
import { bundledText } from './scripts/vite-bundled-text.ts';
import { workerContentSecurityPolicy } from './src/frame/worker-csp.ts';
import { chromiumLaunchOptions } from './test/chromium.ts';
import { SMALL_DISK_PROFILE } from './test/small-disk.ts';

const root = import.meta.dirname;

/** The package's entries: `moat-sdk`, `moat-sdk/worker` and the subpaths (package.json's exports map). */
const ENTRIES: Record<string, string> = {
  moat: 'src/index.ts',
  worker: 'worker/index.ts',
  providers: 'src/providers/index.ts',
  stream: 'src/stream/index.ts',
  json: 'src/json/index.ts',
  messages: 'src/messages/index.ts',
  invoker: 'src/invoker/index.ts',
  pool: 'src/pool/index.ts',
  mcp: 'src/mcp/index.ts',
  store: 'src/store/index.ts',
  errors: 'src/errors/index.ts',
  local: 'src/local/index.ts',
  server: 'src/server/index.ts',
  react: 'src/react/index.ts',
};

/** Cross-origin isolation: fine-grained `performance.now()` and SharedArrayBuffer. */
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/** Merged over the isolation headers: 'unsafe-none' turns them off (a page without SharedArrayBuffer). */
const NOT_ISOLATED = { 'Cross-Origin-Opener-Policy': 'unsafe-none', 'Cross-Origin-Embedder-Policy': 'unsafe-none' };

/** Vitest browser mode in headless Chromium (test/chromium.ts says which). */
function chromium(contextOptions: { permissions?: string[] } = {}, args: string[] = []) {
  const launchOptions = chromiumLaunchOptions();
  return {
    enabled: true,
    headless: true,
    provider: playwright({
      launchOptions: { ...launchOptions, args: [...launchOptions.args, ...args] },
      contextOptions,
    }),
    instances: [{ browser: 'chromium' as const }],
    // Vitest's browser server listens on 63315 unless told: MOAT_BROWSER_PORT lets two runs share
    // a machine (each run's projects then count up from it).
    ...(process.env.MOAT_BROWSER_PORT ? { api: { port: Number(process.env.MOAT_BROWSER_PORT) } } : {}),
  };
}

/** The 1,000-call storms (issue #15). */
const STORM = 'src/pool/storm.browser.test.ts';

/**
 * What a page's cross-origin isolation changes, run again on a page without it ('browser-plain'):
 * sealed frames (COEP reaches into iframes) and the code sandbox's. The pool itself takes the
 * same path on every page (it shares no memory), so its other tests run once.
 */
const ISOLATION_MATTERS = [
  'src/pool/seal.browser.test.ts',
  'src/pool/sealed.browser.test.ts',
  'src/sandbox/**/*.browser.test.ts',
  'src/mcp/**/*.browser.test.ts',
  'test/**/*.plain.browser.test.ts',
];

/** Measures the page's responsiveness: runs alone (the 'quiet' project). */
const QUIET = 'src/pool/responsive.browser.test.ts';

/**
 * Serve tool worker scripts whose file name starts with `csp-` with a Content-Security-Policy
 * that closes the network to them, dynamic import() included (see workerContentSecurityPolicy).
 */
function workerCsp(): Plugin {
  const middleware: Connect.NextHandleFunction = (req, res, next) => {
    if (req.url && /\/csp-[\w-]*\.worker[\w.-]*\.[jt]s/.test(req.url)) {
      res.setHeader('Content-Security-Policy', workerContentSecurityPolicy('deny'));
    }
    next();
  };
  return {
    name: 'moat-worker-csp',
    configureServer: (server) => void server.middlewares.use(middleware),
    configurePreviewServer: (server) => void server.middlewares.use(middleware),
  };
}

export default defineConfig(({ mode }) => ({
  plugins: [workerCsp(), bundledText()],
  // Relative base: the built demo works from any path on any static host.
  base: './',
  resolve: {
    // `moat-sdk` and its subpaths, as the package's exports map names them (exact names only).
    alias: Object.entries(ENTRIES).map(([name, path]) => ({
      find: new RegExp(`^${name === 'moat' ? 'moat-sdk' : `moat-sdk/${name}`}$`),
      replacement: resolve(root, path),
    })),
  },
  server: { port: 5173, strictPort: true, headers: isolationHeaders },
  preview: { port: 4173, strictPort: true, headers: isolationHeaders },
  worker: { format: 'es' },
  // Known up front, so that the first test run does not discover them and reload the page.
  optimizeDeps: {
    include: ['comlink', 'zod', 'zod/mini', 'zod/v4/core', 'acorn', 'es-module-lexer/js', 'marked', 'dompurify', 'idb'],
  },
  build:
    mode === 'bench'
      ? {
          target: 'es2022',
          outDir: 'dist-bench',
          emptyOutDir: true,
          rolldownOptions: { input: resolve(root, 'bench/index.html') },
        }
      : mode === 'lib'
        ? {
            target: 'es2022',
            outDir: 'dist',
            emptyOutDir: true,
            sourcemap: true,
            lib: {
              entry: Object.fromEntries(Object.entries(ENTRIES).map(([name, path]) => [name, resolve(root, path)])),
              formats: ['es'],
            },
            // The dependencies: the app's bundler resolves them (and shares one copy).
            rolldownOptions: {
              external: [
                'comlink',
                'idb',
                'zod',
                /^zod\//,
                'acorn',
                /^es-module-lexer\//,
                /^@wllama\//,
                'react',
                /^react\//,
              ],
            },
          }
        : {
            target: 'es2022',
            outDir: 'dist-demo',
            emptyOutDir: true,
            // The chat, and the page an MCP server's sign-in comes back to.
            rolldownOptions: {
              input: { index: resolve(root, 'index.html'), 'oauth-callback': resolve(root, 'oauth-callback.html') },
            },
          },
  test: {
    // CI also writes a JSON report, from which .ci/run prints one closing count.
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          environment: 'node',
          // A hang guard, not a time limit: beside two busy loops (test:loaded) a model-server
          // round trip that takes 100 ms alone took past 5 s.
          testTimeout: 15_000,
          globalSetup: ['test/model-server/setup.ts'],
          include: ['src/**/*.test.ts', 'worker/**/*.test.ts', 'test/**/*.test.ts', 'demo/**/*.test.ts'],
          exclude: ['**/*.browser.test.ts', '**/*.quota.test.ts'],
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          globalSetup: [
            'test/probe-server.ts',
            'test/model-server/setup.ts',
            'test/built-workers.ts',
            'test/mcp-server/setup.ts',
          ],
          include: ['src/**/*.browser.test.ts', 'worker/**/*.browser.test.ts', 'test/**/*.browser.test.ts'],
          exclude: ['test/**/*.plain.browser.test.ts', STORM, QUIET],
          // Notifications allowed, so that a tool's notification icon really would be fetched
          // (the network tests check that the guard stops it).
          browser: chromium({ permissions: ['notifications'] }),
        },
      },
      {
        // The same browser tests of the pool, on a page that is NOT cross-origin isolated (no
        // SharedArrayBuffer): what the hosted demo and most apps get.
        extends: true,
        server: { headers: NOT_ISOLATED },
        test: {
          name: 'browser-plain',
          globalSetup: ['test/probe-server.ts', 'test/built-workers.ts', 'test/mcp-server/setup.ts'],
          include: ISOLATION_MATTERS,
          browser: chromium({ permissions: ['notifications'] }),
        },
      },
      {
        // WebMCP with Chromium's own implementation (behind its flag) instead of the polyfill.
        extends: true,
        test: {
          name: 'webmcp-native',
          include: ['src/mcp/webmcp.browser.test.ts'],
          browser: chromium({}, ['--enable-features=WebMCP']),
        },
      },
      {
        extends: true,
        test: {
          name: 'quiet',
          include: [QUIET],
          sequence: { groupOrder: 1 },
          browser: chromium(),
        },
      },
      // The storms start a worker for every endless loop and keep both cores busy: they run last,
      // after every test with time limits of its own. Beside other tests on two cores, a worker
      // could get no CPU for longer than the page waits for a stopped worker to answer (50 ms),
      // and a call it ran in the moment before it was stopped was reported crashed (seen once in
      // a fresh-clone run; the README says what a loaded machine can cost).
      {
        extends: true,
        test: {
          name: 'storm',
          globalSetup: ['test/built-workers.ts'],
          include: [STORM],
          sequence: { groupOrder: 2 },
          browser: chromium(),
        },
      },
      {
        // A real quota exhaustion: the browser's profile on a small disk (test/small-disk.ts).
        extends: true,
        test: {
          name: 'quota',
          globalSetup: ['test/small-disk.ts'],
          include: ['src/**/*.quota.test.ts'],
          fileParallelism: false,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({ launchOptions: chromiumLaunchOptions(), persistentContext: SMALL_DISK_PROFILE }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
}));
