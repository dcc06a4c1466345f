/**
 * Where Chromium comes from, for Vitest browser mode, Playwright and the bench runner alike.
 * `CHROMIUM_PATH` wins; else Debian's `/usr/bin/chromium` when present; else Playwright's own
 * browser (`npx playwright install chromium` on a laptop).
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

export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) return fromEnv;
  return existsSync('/usr/bin/chromium') ? '/usr/bin/chromium' : undefined;
}

/** Launch options for Playwright's `chromium.launch` (and Vitest's playwright provider). */
export function chromiumLaunchOptions(): { executablePath?: string; args: string[] } {
  const executablePath = chromiumExecutable();
  return executablePath ? { executablePath, args: CHROMIUM_ARGS } : { args: CHROMIUM_ARGS };
}
