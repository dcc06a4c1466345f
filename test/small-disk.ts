/**
 * A small disk for the real quota test (Vitest globalSetup of the `quota` project): Chromium
 * gives an origin a share of the disk its profile is on, so a browser profile on a 40 MB tmpfs
 * has a quota of about 24 MB, which a test can fill. Mounting needs root; without it the test
 * says so and is skipped.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import type { TestProject } from 'vitest/node';

/** Where the `quota` project's browser keeps its profile (the tmpfs, once mounted). */
export const SMALL_DISK = '/tmp/moat-small-disk';
export const SMALL_DISK_PROFILE = `${SMALL_DISK}/profile`;

declare module 'vitest' {
  export interface ProvidedContext {
    /** Why the quota cannot be filled here, or '' when the profile is on the small disk. */
    smallDisk: string;
  }
}

export default function setup(project: TestProject) {
  let why = '';
  try {
    rmSync(SMALL_DISK_PROFILE, { recursive: true, force: true });
    mkdirSync(SMALL_DISK, { recursive: true });
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=40m', 'tmpfs', SMALL_DISK], { stdio: 'pipe' });
  } catch (error) {
    const detail = error instanceof Error ? error.message.split('\n')[0] : String(error);
    why = `cannot mount a 40 MB tmpfs for the browser profile (needs root): ${detail}`;
    console.warn(`quota tests skipped: ${why}`);
  }
  project.provide('smallDisk', why);
  return () => {
    if (why) return;
    try {
      execFileSync('umount', ['-l', SMALL_DISK], { stdio: 'pipe' });
    } catch {
      // already gone
    }
  };
}
