/**
 * Runs the official MCP conformance suite's client scenarios (`@modelcontextprotocol/conformance`)
 * against Moat's MCP client (`mcpServer`), in real Chromium, and prints which checks pass.
 *
 *   node --import tsx scripts/mcp-conformance.ts [--verbose] [--no-proxy] [--scenario <name>]…
 *
 * --verbose: each check's details, the traffic through the proxy, the page's console.
 * --no-proxy: the client connects to the scenario's server itself (to see that CORS is needed).
 * --scenario: run these (repeatable), out of scope or not; default: every scenario in scope.
 *
 * How: the suite's own CLI runs each scenario (`conformance client --scenario <s> --command <c>`):
 * it starts the scenario's server, runs the command with the server's URL, then saves the checks
 * the server recorded. The CLI needs Node 22 (`fs.globSync`); on Node 20 it runs with the loader
 * hooks of test/mcp-conformance/node20.mjs, which rewrite that one import. The command
 * (test/mcp-conformance/client-command.ts) hands the URL back here: CORS proxies go in front of
 * the scenario's servers (test/mcp-conformance/proxy.ts: the client's requests come from an
 * opaque origin, and the suite's servers send no CORS headers), and the page test/mcp-conformance/index.html, served by Vite and
 * open in Chromium, connects Moat's client through it, lists the tools and calls each one.
 *
 * Scenarios of what Moat's client does not do (machine OAuth clients, elicitation) are listed as
 * out of scope. An OAuth scenario signs in as a person would: a popup to the suite's /authorize
 * (which approves at once) lands on test/mcp-oauth/callback.html, which calls finishOAuth().
 * Exits 0: this is a report (failed checks are findings about the client).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium, type Page } from 'playwright';
import { createServer } from 'vite';
import { chromiumLaunchOptions } from '../test/chromium.ts';
import { startProxies } from '../test/mcp-conformance/proxy.ts';
import type { ClientRun } from '../test/mcp-conformance/types.ts';

const ROOT = resolve(import.meta.dirname, '..');
const CLI = join(ROOT, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const NODE20_HOOKS = join(ROOT, 'test/mcp-conformance/node20.mjs');
const CLIENT_COMMAND = `${process.execPath} --import tsx test/mcp-conformance/client-command.ts`;
/** The CLI's limit for one scenario's client command. */
const SCENARIO_TIMEOUT_MS = 30_000;

const argv = process.argv.slice(2);
const VERBOSE = argv.includes('--verbose');
const NO_PROXY = argv.includes('--no-proxy');
const ONLY = argv.flatMap((arg, i) => (argv[i - 1] === '--scenario' ? [arg] : []));

/** One check, as the suite records it (src/types.ts of the conformance package). */
interface Check {
  id: string;
  name: string;
  description: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
  details?: Record<string, unknown>;
}

/** Why a scenario is not run, or undefined when it is. */
function outOfScope(scenario: string): string | undefined {
  if (/^auth\/(client-credentials|cross-app-access|pre-registration)/.test(scenario))
    return 'a confidential client (a client secret, a private key or an enterprise assertion): a page keeps no secret, so browserOAuth is a public client';
  if (scenario.includes('elicitation')) return 'elicitation: mcpServer declares no elicitation capability';
  if (scenario.includes('sampling')) return 'sampling: mcpServer declares no sampling capability';
  if (scenario.includes('roots')) return 'roots: mcpServer declares no roots capability';
  return undefined;
}

// ---------------------------------------------------------------------------------------------
// The conformance CLI, on Node 20

interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runCli(args: string[], env: Record<string, string> = {}): Promise<Ran> {
  const child: ChildProcess = spawn(process.execPath, ['--import', NODE20_HOOKS, CLI, ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((done) => child.on('close', (code) => done({ code, stdout, stderr })));
}

async function clientScenarios(): Promise<{ name: string; specVersions: string }[]> {
  const listed = await runCli(['list', '--client']);
  if (listed.code !== 0) throw new Error(`conformance list --client failed:\n${listed.stderr}`);
  return [...listed.stdout.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?$/gm)].map((m) => ({
    name: m[1] as string,
    specVersions: m[2] ?? '',
  }));
}

function findFile(dir: string, name: string): string | undefined {
  const found = readdirSync(dir, { recursive: true })
    .map(String)
    .find((path) => path.endsWith(name));
  return found === undefined ? undefined : join(dir, found);
}

// ---------------------------------------------------------------------------------------------
// The page, and the driver the client command calls

interface Outcome {
  run?: ClientRun;
  harnessError?: string;
  proxyLog: string[];
  pageLog: string[];
}

/** Serves POST {url, scenario} from client-command.ts: runs the page's client through a proxy. */
async function startDriver(page: Page, pageLog: string[], outcomes: Map<string, Outcome>, pageOrigin: string) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const { url, scenario } = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { url: string; scenario: string };
    const proxy = NO_PROXY ? { url, log: [], close: async () => {} } : await startProxies(new URL(url), pageOrigin);
    const outcome: Outcome = { proxyLog: proxy.log, pageLog: [] };
    outcomes.set(scenario, outcome);
    pageLog.length = 0;
    try {
      outcome.run = await page.evaluate((target) => window.runMcpConformance(target), proxy.url);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(outcome.run));
    } catch (error) {
      outcome.harnessError = error instanceof Error ? error.message : String(error);
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(outcome.harnessError);
    } finally {
      outcome.pageLog = [...pageLog];
      await proxy.close();
    }
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/run`, close: () => new Promise<void>((c) => server.close(() => c())) };
}

async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}

// ---------------------------------------------------------------------------------------------
// The report

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  return rows
    .map((row) =>
      row
        .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i] ?? 0)))
        .join(' | ')
        .trimEnd(),
    )
    .join('\n');
}

/** Without terminal colours. */
function plain(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the escape character is what it removes
  return text.replace(/\x1B\[[0-9;]*m/g, '');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A check's error, else (a failure without one) what its details say, else its description. */
function message(check: Check): string {
  if (check.errorMessage) return check.errorMessage;
  const said = check.details?.message;
  return check.status !== 'SUCCESS' && typeof said === 'string' ? `${check.description}: ${said}` : check.description;
}

function describeRun(outcome: Outcome | undefined): string[] {
  if (!outcome) return ['  the client command never reached the harness'];
  if (outcome.harnessError) return [`  harness error: ${outcome.harnessError}`];
  const run = outcome.run as ClientRun;
  const lines = [`  listed tools: ${run.tools.join(', ') || '(none)'}`];
  for (const skipped of run.skipped) lines.push(`  skipped tool ${skipped.name}: ${skipped.reason}`);
  if (run.error)
    lines.push(
      `  connect/list failed: ${run.error.name}: ${oneLine(run.error.message)}${run.error.cause ? ` (cause: ${run.error.cause})` : ''}`,
    );
  for (const call of run.calls) {
    const what = call.error
      ? `${call.error.name}: ${oneLine(call.error.message)}${call.error.cause ? ` (cause: ${oneLine(call.error.cause)})` : ''}`
      : JSON.stringify(call.content);
    lines.push(`  call ${call.name}(${JSON.stringify(call.args)}) -> ${call.status}: ${what}`);
  }
  return lines;
}

async function main(): Promise<void> {
  const scenarios = await clientScenarios();
  const relevant = scenarios.filter(({ name }) =>
    ONLY.length === 0 ? outOfScope(name) === undefined : ONLY.includes(name),
  );
  const unknown = ONLY.filter((name) => !scenarios.some((s) => s.name === name));
  if (unknown.length > 0) throw new Error(`No such client scenario: ${unknown.join(', ')}`);
  console.log(`Client scenarios of @modelcontextprotocol/conformance (${scenarios.length}):`);
  for (const { name, specVersions } of scenarios) {
    const why = outOfScope(name);
    console.log(`  ${why ? 'skip' : 'RUN '}  ${name} [${specVersions}]${why ? `: ${why}` : ''}`);
  }

  const port = await freePort();
  const vite = await createServer({
    configFile: join(ROOT, 'vite.config.ts'),
    root: ROOT,
    logLevel: 'warn',
    clearScreen: false,
    // Others edit src/ meanwhile: no reloads under a run.
    server: { port, strictPort: true, hmr: false, ws: false, watch: null },
  });
  await vite.listen();
  const browser = await chromium.launch(chromiumLaunchOptions());
  const outcomes = new Map<string, Outcome>();
  const results: { scenario: string; checks: Check[]; cli: Ran }[] = [];
  try {
    const page = await browser.newPage();
    const pageLog: string[] = [];
    page.on('console', (message) => pageLog.push(`console.${message.type()}: ${message.text()}`));
    page.on('pageerror', (error) => pageLog.push(`pageerror: ${error.message}`));
    await page.goto(`http://localhost:${port}/test/mcp-conformance/index.html`);
    await page.waitForFunction(() => typeof window.runMcpConformance === 'function', undefined, { timeout: 60_000 });
    const isolated = await page.evaluate(() => crossOriginIsolated);
    console.log(`\nPage: http://localhost:${port}/test/mcp-conformance/index.html (crossOriginIsolated: ${isolated})`);
    const driver = await startDriver(page, pageLog, outcomes, `http://localhost:${port}`);
    try {
      for (const { name } of relevant) {
        const out = mkdtempSync(join(tmpdir(), 'moat-mcp-conformance-'));
        try {
          const args = ['client', '--scenario', name, '--command', CLIENT_COMMAND];
          args.push('--timeout', String(SCENARIO_TIMEOUT_MS), '--output-dir', out);
          const cli = await runCli(args, { MOAT_CONFORMANCE_DRIVER: driver.url });
          const file = findFile(out, 'checks.json');
          const checks: Check[] = file
            ? (JSON.parse(readFileSync(file, 'utf8')) as Check[])
            : [
                {
                  id: name,
                  name,
                  description: 'The conformance CLI saved no checks',
                  status: 'FAILURE',
                  errorMessage: oneLine(cli.stderr).slice(0, 500),
                },
              ];
          results.push({ scenario: name, checks, cli });
        } finally {
          rmSync(out, { recursive: true, force: true });
        }
      }
    } finally {
      await driver.close();
    }
  } finally {
    await browser.close();
    await vite.close();
  }

  const rows = [['scenario', 'check id', 'status', 'message']];
  for (const { scenario, checks } of results) {
    if (checks.length === 0) rows.push([scenario, '(none)', '-', 'the scenario recorded no checks']);
    for (const check of checks) rows.push([scenario, check.id, check.status, oneLine(message(check))]);
  }
  console.log(`\n${table(rows)}`);

  console.log('\nWhat the client did:');
  for (const { scenario, cli } of results) {
    const outcome = outcomes.get(scenario);
    const exited = /Client exited with code (-?\d+)/.exec(cli.stderr)?.[1] ?? '0';
    const timedOut = cli.stderr.includes('Client timed out');
    console.log(
      `${scenario} (client command: ${timedOut ? 'timed out' : `exit ${exited}`}; conformance CLI: exit ${cli.code}):`,
    );
    for (const line of describeRun(outcome)) console.log(line);
    if (VERBOSE)
      for (const check of results.find((r) => r.scenario === scenario)?.checks ?? [])
        if (check.status !== 'INFO' && check.details)
          console.log(`  ${check.id} details: ${JSON.stringify(check.details)}`);
    if (VERBOSE && cli.code !== 0)
      console.log(`  conformance CLI's output:\n${plain(cli.stderr).replace(/^/gm, '    ')}`);
    if (VERBOSE && outcome) {
      console.log('  traffic through the CORS proxy:');
      for (const line of outcome.proxyLog) console.log(`    ${line}`);
      for (const line of outcome.pageLog) console.log(`    page ${line}`);
    }
  }

  const all = results.flatMap(({ checks }) => checks);
  const count = (status: Check['status']) => all.filter((check) => check.status === status).length;
  const failing = results.filter(({ checks }) => checks.some((c) => c.status === 'FAILURE' || c.status === 'WARNING'));
  console.log(
    `\nSummary: ${results.length} of ${scenarios.length} client scenarios run${NO_PROXY ? ' (no CORS proxy)' : ''}, ` +
      `${count('SUCCESS')} checks passed, ${count('FAILURE')} failed, ${count('WARNING')} warnings, ${count('INFO')} info; ` +
      `scenarios with failures or warnings: ${failing.map((r) => r.scenario).join(', ') || 'none'}`,
  );
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('The conformance harness failed:', error);
    process.exit(0);
  },
);
