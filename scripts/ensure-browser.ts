/**
 * Before the browser tests: finds a Chromium, or installs one the way this machine allows, or
 * stops with one line saying what to run (the decisions are `chooseChromium`, test/chromium.ts).
 * `node --import tsx scripts/ensure-browser.ts`; exits 1 when there is no browser to test with.
 */
import { spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { chromium } from '@playwright/test';
import {
  type BrowserFacts,
  type BrowserInstall,
  type BrowserProbe,
  chooseChromium,
  SYSTEM_CHROMIUM,
  shellLine,
} from '../test/chromium.ts';

function probe(path: string): BrowserProbe {
  if (!existsSync(path)) return 'missing';
  const run = spawnSync(path, ['--version'], { stdio: 'ignore', timeout: 30_000 });
  return run.status === 0 ? 'runs' : 'fails';
}

function onPath(command: string): boolean {
  return (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, command), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
}

function facts(tried: readonly BrowserInstall[]): BrowserFacts {
  const fromEnv = process.env.CHROMIUM_PATH;
  const playwrightPath = chromium.executablePath();
  return {
    ...(fromEnv ? { envPath: { path: fromEnv, probe: probe(fromEnv) } } : {}),
    system: probe(SYSTEM_CHROMIUM),
    playwright: { path: playwrightPath, probe: probe(playwrightPath) },
    isRoot: process.getuid?.() === 0,
    hasApt: onPath('apt-get'),
    downloadAllowed: !process.env.PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD,
    tried,
  };
}

const tried: BrowserInstall[] = [];
for (;;) {
  const plan = chooseChromium(facts(tried));
  if (plan.kind === 'use') {
    console.log(`Chromium for the tests: ${plan.path} (${plan.source})`);
    break;
  }
  if (plan.kind === 'stop') {
    console.error(plan.message);
    process.exit(1);
  }
  console.log(`No Chromium that runs here yet: ${shellLine(plan.commands)}`);
  tried.push(plan.install);
  for (const [command, ...args] of plan.commands) {
    const run = spawnSync(command, args, {
      stdio: 'inherit',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
    if (run.status !== 0) {
      console.log(`(${shellLine(plan.commands)} failed; looking again)`);
      break;
    }
  }
}
