/**
 * What a sealed pool adds to the machine: the browser's processes before and after a page opens
 * one (Chromium's own process list, `SystemInfo.getProcessInfo`), and what the new ones hold
 * (their proportional set size, from Linux's /proc: memory shared with other processes counted
 * in shares).
 */
import { readFileSync } from 'node:fs';
import type { Browser, Page } from '@playwright/test';
import type { BenchResult } from './case.ts';

interface ProcessInfo {
  type: string;
  id: number;
}

async function processes(browser: Browser): Promise<ProcessInfo[]> {
  const cdp = await browser.newBrowserCDPSession();
  try {
    const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as { processInfo: ProcessInfo[] };
    return processInfo;
  } finally {
    await cdp.detach();
  }
}

/** Proportional set size in MB, or undefined where /proc cannot say. */
function pssMB(pid: number): number | undefined {
  try {
    const kB = /^Pss:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1];
    return kB === undefined ? undefined : Number(kB) / 1024;
  } catch {
    return undefined;
  }
}

/** Open a sealed pool of two workers on `page` (the bench page's hook), one call each; measure; close it. */
export async function sealedPoolProcesses(browser: Browser, page: Page): Promise<BenchResult[]> {
  const before = new Set((await processes(browser)).map((p) => p.id));
  await page.evaluate(() => window.moatBench.openSealedPool());
  const added = (await processes(browser)).filter((p) => !before.has(p.id));
  const sizes = added.map((p) => pssMB(p.id));
  await page.evaluate(() => window.moatBench.closeSealedPool());
  const note = `a page opens a sealed pool of 2 workers (one call each): the browser processes it adds (${added.map((p) => p.type).join(', ') || 'none'})`;
  const row = (name: string, unit: BenchResult['unit'], value: number, how: string): BenchResult => ({
    name,
    unit,
    median: value,
    min: value,
    max: value,
    samples: 1,
    where: 'browser',
    note: how,
  });
  const results = [row('pool/sealed-extra-processes', 'count', added.length, note)];
  if (sizes.every((s) => s !== undefined)) {
    const total = sizes.reduce((a, b) => (a ?? 0) + (b ?? 0), 0) ?? 0;
    results.push(row('pool/sealed-extra-memory', 'MB', total, `${note}: their proportional set size (Linux /proc)`));
  }
  return results;
}
