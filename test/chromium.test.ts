import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { type BrowserFacts, type BrowserPlan, type BrowserProbe, chooseChromium, SYSTEM_CHROMIUM } from './chromium';

const PLAYWRIGHTS = '/root/.cache/ms-playwright/chromium-1/chrome-linux64/chrome';

/** A machine with no Chromium anywhere, root with apt, downloads allowed, nothing tried yet. */
function machine(over: Partial<BrowserFacts> = {}): BrowserFacts {
  return {
    system: 'missing',
    playwright: { path: PLAYWRIGHTS, probe: 'missing' },
    isRoot: true,
    hasApt: true,
    downloadAllowed: true,
    tried: [],
    ...over,
  };
}

const installs = (plan: BrowserPlan) => (plan.kind === 'install' ? plan.commands.map((c) => c.join(' ')) : plan);
const stopMessage = (plan: BrowserPlan) => (plan.kind === 'stop' ? plan.message : `not a stop: ${plan.kind}`);

describe('chooseChromium: a browser that is there', () => {
  it('uses CHROMIUM_PATH when it runs, before the system one', () => {
    const plan = chooseChromium(machine({ envPath: { path: '/opt/c/chrome', probe: 'runs' }, system: 'runs' }));
    expect(plan).toEqual({ kind: 'use', path: '/opt/c/chrome', source: 'CHROMIUM_PATH' });
  });

  it('uses Debian\u2019s /usr/bin/chromium before Playwright\u2019s own', () => {
    const plan = chooseChromium(machine({ system: 'runs', playwright: { path: PLAYWRIGHTS, probe: 'runs' } }));
    expect(plan).toEqual({ kind: 'use', path: SYSTEM_CHROMIUM, source: 'system' });
  });

  it('uses Playwright\u2019s own when it is the only one that runs', () => {
    const plan = chooseChromium(machine({ system: 'fails', playwright: { path: PLAYWRIGHTS, probe: 'runs' } }));
    expect(plan).toEqual({ kind: 'use', path: PLAYWRIGHTS, source: 'playwright' });
  });
});

describe('chooseChromium: CHROMIUM_PATH that does not work is an error naming it', () => {
  it('a path with no file there stops, and installs nothing even as root', () => {
    const plan = chooseChromium(machine({ envPath: { path: '/nowhere/chromium', probe: 'missing' }, system: 'runs' }));
    expect(stopMessage(plan)).toBe(
      "CHROMIUM_PATH is /nowhere/chromium, but there is no file there: point it at a Chromium, or unset it to use /usr/bin/chromium or Playwright's.",
    );
  });

  it('a file that does not run stops with the probe that failed', () => {
    const plan = chooseChromium(machine({ envPath: { path: '/tmp/not-chrome', probe: 'fails' } }));
    expect(stopMessage(plan)).toContain('CHROMIUM_PATH is /tmp/not-chrome, but `/tmp/not-chrome --version` failed');
  });
});

describe('chooseChromium: none there', () => {
  it('tries Playwright\u2019s download first, root or not', () => {
    for (const isRoot of [true, false]) {
      expect(installs(chooseChromium(machine({ isRoot, system: 'fails' })))).toEqual([
        'npx playwright install chromium',
      ]);
    }
  });

  it('then Debian\u2019s package, as root with apt', () => {
    const plan = chooseChromium(machine({ tried: ['playwright'] }));
    expect(installs(plan)).toEqual(['apt-get update', 'apt-get install -y chromium']);
  });

  it('goes straight to Debian\u2019s package when Playwright is told not to download', () => {
    expect(installs(chooseChromium(machine({ downloadAllowed: false })))).toEqual([
      'apt-get update',
      'apt-get install -y chromium',
    ]);
  });

  it('installs the system libraries of Playwright\u2019s browser when it is there but does not run', () => {
    const broken = { path: PLAYWRIGHTS, probe: 'fails' as const };
    expect(installs(chooseChromium(machine({ playwright: broken })))).toEqual(['npx playwright install-deps chromium']);
    // Still not running after that: Debian's package.
    expect(installs(chooseChromium(machine({ playwright: broken, tried: ['playwright-deps'] })))).toEqual([
      'apt-get update',
      'apt-get install -y chromium',
    ]);
  });
});

describe('chooseChromium: nothing left to try stops with the one command to run', () => {
  it('as root, after both installs failed: the apt line', () => {
    const plan = chooseChromium(machine({ tried: ['playwright', 'apt'] }));
    expect(stopMessage(plan)).toBe(
      'No Chromium for the browser tests. Run: apt-get update && apt-get install -y chromium; or set CHROMIUM_PATH to one.',
    );
  });

  it('not root, with apt: the same with sudo', () => {
    const plan = chooseChromium(machine({ isRoot: false, tried: ['playwright'] }));
    expect(stopMessage(plan)).toContain('Run: sudo apt-get update && sudo apt-get install -y chromium;');
  });

  it('without apt: Playwright\u2019s download, where downloads work', () => {
    const plan = chooseChromium(machine({ isRoot: false, hasApt: false, tried: ['playwright'] }));
    expect(stopMessage(plan)).toContain('Run: npx playwright install chromium where downloads work;');
  });

  it('Playwright\u2019s browser without its libraries, not root: install-deps with sudo, naming the browser', () => {
    const plan = chooseChromium(machine({ isRoot: false, playwright: { path: PLAYWRIGHTS, probe: 'fails' } }));
    expect(stopMessage(plan)).toContain(
      `Run: sudo npx playwright install-deps chromium (Playwright's Chromium at ${PLAYWRIGHTS} lacks system libraries);`,
    );
  });
});

describe('chooseChromium on any machine', () => {
  const probe = fc.constantFrom<BrowserProbe>('missing', 'runs', 'fails');
  const anyMachine = fc.record({
    env: fc.option(probe, { nil: undefined }),
    system: probe,
    playwright: probe,
    isRoot: fc.boolean(),
    hasApt: fc.boolean(),
    downloadAllowed: fc.boolean(),
  });

  it('where no install helps, tries each install once and ends in one line; uses only a browser that runs', () => {
    fc.assert(
      fc.property(anyMachine, (m) => {
        const tried: BrowserFacts['tried'][number][] = [];
        for (;;) {
          const plan = chooseChromium({
            ...(m.env ? { envPath: { path: '/env/chrome', probe: m.env } } : {}),
            system: m.system,
            playwright: { path: PLAYWRIGHTS, probe: m.playwright },
            isRoot: m.isRoot,
            hasApt: m.hasApt,
            downloadAllowed: m.downloadAllowed,
            tried: [...tried],
          });
          if (plan.kind === 'use') {
            const probed = { CHROMIUM_PATH: m.env, system: m.system, playwright: m.playwright }[plan.source];
            expect(probed).toBe('runs');
            return;
          }
          if (plan.kind === 'stop') {
            expect(plan.message).not.toContain('\n');
            return;
          }
          expect(tried).not.toContain(plan.install);
          // apt and Playwright's system libraries need root and apt.
          if (plan.install !== 'playwright') expect(m.isRoot && m.hasApt).toBe(true);
          tried.push(plan.install);
        }
      }),
    );
  });
});

// Each test starts Node with tsx and Playwright's module: about 1 s alone, several beside the
// browser tests on two cores.
describe('scripts/ensure-browser.ts', { timeout: 60_000 }, () => {
  const root = resolve(import.meta.dirname, '..');
  const dir = mkdtempSync(join(tmpdir(), 'moat-ensure-browser-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** Runs the script with CHROMIUM_PATH set (so it never installs anything). */
  async function ensure(chromiumPath: string) {
    try {
      const { stdout, stderr } = await promisify(execFile)(
        process.execPath,
        ['--import', 'tsx', 'scripts/ensure-browser.ts'],
        {
          cwd: root,
          env: { ...process.env, CHROMIUM_PATH: chromiumPath },
        },
      );
      return { code: 0, stdout, stderr };
    } catch (e) {
      const { code, stdout, stderr } = e as { code: number; stdout: string; stderr: string };
      return { code, stdout, stderr };
    }
  }

  function fakeBrowser(name: string, body: string): string {
    const path = join(dir, name);
    writeFileSync(path, `#!/bin/sh\n${body}\n`);
    chmodSync(path, 0o755);
    return path;
  }

  it('reports a CHROMIUM_PATH with nothing there as an error naming it, in one line, and exits 1', async () => {
    const run = await ensure('/nowhere/chromium');
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      "CHROMIUM_PATH is /nowhere/chromium, but there is no file there: point it at a Chromium, or unset it to use /usr/bin/chromium or Playwright's.\n",
    );
  });

  it('reports a CHROMIUM_PATH that does not run', async () => {
    const broken = fakeBrowser('broken-chrome', 'exit 3');
    const run = await ensure(broken);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`CHROMIUM_PATH is ${broken}, but \`${broken} --version\` failed`);
  });

  it('uses a CHROMIUM_PATH that runs, and says so', async () => {
    const fine = fakeBrowser('fine-chrome', 'echo "Chromium 1.2.3"');
    const run = await ensure(fine);
    expect(run).toMatchObject({ code: 0, stdout: `Chromium for the tests: ${fine} (CHROMIUM_PATH)\n` });
  });
});
