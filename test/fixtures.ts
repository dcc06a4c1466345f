/**
 * The recorded provider streams in `../shared/fixtures` (beside the checkout in CI). A clone
 * without them skips those tests, saying so; the hand-written streams in `test/streams/` still
 * cover the core cases.
 */
import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const FIXTURES = resolve(import.meta.dirname, '../../shared/fixtures');
export const hasFixtures = existsSync(FIXTURES);

if (!hasFixtures) {
  console.warn(`[moat] ${FIXTURES} is missing: tests of recorded provider streams are skipped.`);
}

/** A fixture's text, by its path under `shared/fixtures`. */
export function fixture(path: string): string {
  return readFileSync(resolve(FIXTURES, path), 'utf8');
}

/** A fixture's JSON. */
export function fixtureJSON(path: string): unknown {
  return JSON.parse(fixture(path));
}
