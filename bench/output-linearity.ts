// The structured-output cases' linearity figure (bench/browser/output.ts), derived where the
// runner derives figures: in Node, with no browser module loaded.
import type { BenchResult } from './case';

/**
 * Ours at 1 MB against ours at 100 KB, time per byte: output/partial-1mb's pair ratio to ten
 * 100 KB answers in a row (the same bytes, timed alternately). Linear keeps it near 1.
 */
export function deriveOutputLinearity(results: BenchResult[]): BenchResult[] {
  const large = results.find((x) => x.name === 'output/partial-1mb');
  const perByte = large?.pairRatio ?? large?.ratio;
  if (perByte === undefined) return [];
  return [
    {
      name: 'output/per-byte-1mb-vs-100kb',
      unit: 'x',
      median: perByte,
      min: perByte,
      max: perByte,
      samples: 1,
      ratio: perByte,
      target: { max: 1.5 },
      note: 'time per byte at 1 MB ÷ at 100 KB: output/partial-1mb against output/partial-10x100kb, pair ratio (1 = perfectly linear)',
      where: 'browser',
    },
  ];
}
