/**
 * Where Chromium comes from, for Vitest browser mode, Playwright and the bench runner alike.
 * `CHROMIUM_PATH` wins; else Debian's `/usr/bin/chromium` when present; else Playwright's own
 * browser. `chooseChromium` says what to do when none of them is there (scripts/ensure-browser.ts
 * asks it before the tests).
 */
import { existsSync } from 'node:fs';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Debian's package puts Chromium here (`apt-get install chromium`). */
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return existsSync(SYSTEM_CHROMIUM) ? SYSTEM_CHROMIUM : undefined;
}

/** Launch options for Playwright's `chromium.launch` (and Vitest's playwright provider). */
export function chromiumLaunchOptions(): { executablePath?: string; args: string[] } {
  const executablePath = chromiumExecutable();
  return executablePath ? { executablePath, args: CHROMIUM_ARGS } : { args: CHROMIUM_ARGS };
}

/** What became of `<path> --version`: there is no file, it printed a version, or it failed to run. */
export type BrowserProbe = 'missing' | 'runs' | 'fails';

/** How a browser can be installed: Playwright's download, its system libraries, Debian's package. */
export type BrowserInstall = 'playwright' | 'playwright-deps' | 'apt';

/** What the machine is like, as far as finding or installing Chromium goes. */
export interface BrowserFacts {
  /** `CHROMIUM_PATH`, when set and not empty, and how it probed. */
  envPath?: { path: string; probe: BrowserProbe };
  /** `/usr/bin/chromium`. */
  system: BrowserProbe;
  /** Playwright's own Chromium: where Playwright looks for it, and how it probed. */
  playwright: { path: string; probe: BrowserProbe };
  isRoot: boolean;
  hasApt: boolean;
  /** False when `PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD` is set: Playwright is told not to download. */
  downloadAllowed: boolean;
  /** Installs already attempted in this run (each is tried at most once). */
  tried: readonly BrowserInstall[];
}

/** One command, as argv (run without a shell). */
export type Command = readonly [string, ...string[]];

export type BrowserPlan =
  | { kind: 'use'; path: string; source: 'CHROMIUM_PATH' | 'system' | 'playwright' }
  | { kind: 'install'; install: BrowserInstall; commands: readonly Command[] }
  | { kind: 'stop'; message: string };

const INSTALLS: Record<BrowserInstall, readonly Command[]> = {
  playwright: [['npx', 'playwright', 'install', 'chromium']],
  'playwright-deps': [['npx', 'playwright', 'install-deps', 'chromium']],
  apt: [
    ['apt-get', 'update'],
    ['apt-get', 'install', '-y', 'chromium'],
  ],
};

/** A command as one would type it. */
export function shellLine(commands: readonly Command[], sudo = false): string {
  return commands.map((argv) => `${sudo ? 'sudo ' : ''}${argv.join(' ')}`).join(' && ');
}

/**
 * Which Chromium the tests use, or how to get one, or why not: `CHROMIUM_PATH` (never replaced:
 * one that is missing or does not run is an error naming it), then Debian's, then Playwright's.
 * With none, Playwright's download first (the browser Playwright is built for), then Debian's
 * package when root and apt are there; Playwright's browser that is there but does not run
 * lacks system libraries, which Playwright installs with apt as root. When nothing is left to
 * try, one line with the command to run. Call it again after each install, with that install in
 * `tried`: it ends, since each install is tried once.
 */
export function chooseChromium(facts: BrowserFacts): BrowserPlan {
  const { envPath, playwright, isRoot, hasApt, tried } = facts;
  if (envPath) {
    if (envPath.probe === 'runs') return { kind: 'use', path: envPath.path, source: 'CHROMIUM_PATH' };
    const what = envPath.probe === 'missing' ? 'there is no file there' : `\`${envPath.path} --version\` failed`;
    return {
      kind: 'stop',
      message: `CHROMIUM_PATH is ${envPath.path}, but ${what}: point it at a Chromium, or unset it to use ${SYSTEM_CHROMIUM} or Playwright's.`,
    };
  }
  if (facts.system === 'runs') return { kind: 'use', path: SYSTEM_CHROMIUM, source: 'system' };
  if (playwright.probe === 'runs') return { kind: 'use', path: playwright.path, source: 'playwright' };

  const asRoot = isRoot && hasApt;
  const can = (install: BrowserInstall) => !tried.includes(install);
  const install = (which: BrowserInstall): BrowserPlan => ({
    kind: 'install',
    install: which,
    commands: INSTALLS[which],
  });
  if (playwright.probe === 'fails' && asRoot && can('playwright-deps')) return install('playwright-deps');
  if (playwright.probe === 'missing' && facts.downloadAllowed && can('playwright')) return install('playwright');
  if (asRoot && can('apt')) return install('apt');

  // Nothing left to try here: the one command that would help, for the person at the keyboard.
  const fix =
    playwright.probe === 'fails'
      ? `${shellLine(INSTALLS['playwright-deps'], !isRoot)} (Playwright's Chromium at ${playwright.path} lacks system libraries)`
      : hasApt
        ? shellLine(INSTALLS.apt, !isRoot)
        : `${shellLine(INSTALLS.playwright)} where downloads work`;
  return { kind: 'stop', message: `No Chromium for the browser tests. Run: ${fix}; or set CHROMIUM_PATH to one.` };
}
