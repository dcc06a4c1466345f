import { describe, expect, it } from 'vitest';
import { resolveTimeLimit, type TimeLimits } from './call-clock';

describe('resolveTimeLimit', () => {
  it.each<[string, TimeLimits, number]>([
    ['the pool alone', { pool: 30_000 }, 30_000],
    ["the invoker's over the pool's", { invoker: 60_000, pool: 30_000 }, 60_000],
    [
      "the tool's own over the invoker's (longer, within the pool's)",
      { tool: 20_000, invoker: 5_000, pool: 30_000 },
      20_000,
    ],
    ["the tool's own, held to the pool's", { tool: 120_000, invoker: 60_000, pool: 30_000 }, 30_000],
    ["the tool's own, up to the ceiling the page allows", { tool: 120_000, pool: 30_000, ceiling: 300_000 }, 120_000],
    ["the tool's own, held to a ceiling below the pool's", { tool: 120_000, pool: 30_000, ceiling: 10_000 }, 10_000],
    ["the tool's own over the invoker's (shorter)", { tool: 3_000, invoker: 60_000, pool: 30_000 }, 3_000],
    ["the call's over the tool's own", { call: 500, tool: 3_000, invoker: 60_000, pool: 30_000 }, 500],
    [
      "the call's over everything, even when longer",
      { call: 90_000, tool: 3_000, invoker: 60_000, pool: 30_000 },
      90_000,
    ],
    ['Infinity at a level is a limit (none), not a gap', { call: Infinity, tool: 3_000, pool: 30_000 }, Infinity],
    ["a tool's Infinity is held to the pool's", { tool: Infinity, invoker: 60_000, pool: 30_000 }, 30_000],
    ["a tool's Infinity, where the page allows it", { tool: Infinity, pool: 30_000, ceiling: Infinity }, Infinity],
    ['levels left out are skipped', { call: undefined, tool: undefined, invoker: 1_000, pool: 30_000 }, 1_000],
  ])('%s', (_, limits, expected) => {
    expect(resolveTimeLimit(limits)).toBe(expected);
  });
});
