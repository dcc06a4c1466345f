import { defineConfig, devices } from '@playwright/test';
import { chromiumLaunchOptions } from './test/chromium.ts';

/** The built demo on a plain static server, under a sub-path (as GitHub Pages hosts it). */
const port = 4173;
/** The same build, served cross-origin isolated (COOP + COEP), as `npm start` serves it. */
const isolatedPort = 4175;
export const DEMO_BASE = '/moat/';
/** The wire-protocol model server (test/model-server), for the OpenAI-compatible endpoint tests. */
export const MODEL_SERVER = 'http://127.0.0.1:4180';
/** The test MCP server (test/mcp-server), for the demo's MCP settings. */
export const MCP_SERVER = 'http://127.0.0.1:4181';
const MEMORY = /memory\.spec\.ts$/;
const FRAMES = /cpu\.spec\.ts$/;
/** `npm start`'s dev server (unbundled modules), a port of its own for the tests. */
const DEV = /dev-server\.spec\.ts$/;
/** The specs whose frames a cross-origin-isolated page could change (the 'isolated' project). */
const ISOLATION_MATTERS = /(chat|code|isolation|sealed)\.spec\.ts$/;
const devPort = 5174;

export default defineConfig({
  testDir: 'e2e',
  outputDir: 'test-results/playwright',
  fullyParallel: true,
  // Two at a time even on two cores (Playwright's default there is one): most of a demo test is
  // waiting for the page, and the default suite took 2.4 min with one, 2.0 with two.
  workers: 2,
  forbidOnly: !!process.env.CI,
  retries: 0,
  // The demo's offline model streams at reading pace (a 400-character answer takes 2–5 s on a
  // loaded two-core machine): an assertion on a whole answer needs more than the default 5 s.
  expect: { timeout: 15_000 },
  reporter: process.env.CI ? [['list'], ['json', { outputFile: 'test-results/e2e.json' }]] : [['list']],
  use: { baseURL: `http://127.0.0.1:${port}${DEMO_BASE}`, headless: true, trace: 'retain-on-failure' },
  // `npm test` runs dev, chromium and isolated. `npm run test:stress` runs the frame-gap test
  // alone (beside other tests on two cores it measured the machine, not the page), then the
  // memory bombs: they take gigabytes, and the machine needs a while to give them back.
  projects: [
    {
      name: 'dev',
      testMatch: DEV,
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunchOptions(),
        baseURL: `http://127.0.0.1:${devPort}/`,
      },
    },
    {
      name: 'chromium',
      testIgnore: [MEMORY, FRAMES, DEV],
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions() },
    },
    {
      // What a cross-origin-isolated page changes, again on such a page: COEP reaches into the
      // sandboxed frames of the sealed tools and of the code sandbox. The rest of the page works
      // the same there and runs once.
      name: 'isolated',
      testMatch: ISOLATION_MATTERS,
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: chromiumLaunchOptions(),
        baseURL: `http://127.0.0.1:${isolatedPort}${DEMO_BASE}`,
      },
    },
    {
      name: 'frames',
      testMatch: FRAMES,
      // No trace: its DOM snapshots run on the page's thread, in the frames being measured.
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions(), trace: 'off' },
    },
    {
      name: 'memory',
      testMatch: MEMORY,
      fullyParallel: false,
      dependencies: ['frames'],
      use: { ...devices['Desktop Chrome'], launchOptions: chromiumLaunchOptions() },
    },
  ],
  webServer: [
    {
      command: `npx vite build && node --import tsx e2e/serve-demo.ts ${port} ${DEMO_BASE}`,
      url: `http://127.0.0.1:${port}${DEMO_BASE}`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
    },
    {
      // The build above, read per request (tests start once every server answers).
      command: `node --import tsx e2e/serve-demo.ts ${isolatedPort} ${DEMO_BASE} isolated`,
      url: `http://127.0.0.1:${isolatedPort}${DEMO_BASE}`,
      reuseExistingServer: !process.env.CI,
      timeout: 120_000,
    },
    {
      // As `npm start` runs it, on a port of its own.
      command: `npx vite --host 127.0.0.1 --port ${devPort}`,
      url: `http://127.0.0.1:${devPort}/`,
      reuseExistingServer: !process.env.CI,
      timeout: 60_000,
    },
    {
      command: 'MCP_PORT=4181 node --import tsx test/mcp-server/main.ts',
      url: `${MCP_SERVER}/__log`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
    },
    {
      command: 'node --import tsx test/model-server/main.ts 4180',
      url: `${MODEL_SERVER}/_requests/none`,
      reuseExistingServer: !process.env.CI,
      timeout: 30_000,
    },
  ],
});
