/**
 * Streaming tool-call arguments: the best-effort value after every 8–32-byte chunk, for 1 KB to
 * 1 MB of JSON. Ours reads each chunk once; the re-parsing peers parse the whole prefix again
 * on every chunk (quadratic), so at 100 KB and 1 MB they are timed on an even sample of chunk
 * positions and scaled up to all chunks. `@streamparser/json` is a tokenizer: it emits completed
 * values, not a best-effort value per chunk. One `JSON.parse` of the whole text is the floor.
 */

import { parsePartialJson as langchainParse } from '@langchain/core/output_parsers';
import { JSONParser } from '@streamparser/json';
import { parsePartialJson as aiSdkParse } from 'ai';
import { parse as partialJsonParse } from 'partial-json';
import { createPartialJsonParser } from '../../src/json/partial-json-parser';
import type { BenchCase, BenchResult } from '../case';
import { argumentsText, chunksOf } from '../json-data';

const SIZES = { '1kb': 1_000, '10kb': 10_000, '100kb': 100_000, '1mb': 1_000_000 } as const;
type Size = keyof typeof SIZES;
/** Positions timed per run for a re-parsing peer at sizes where timing all would take minutes. */
const SAMPLE = 120;

let sink: unknown;

function data(size: Size) {
  const text = argumentsText(SIZES[size]);
  const chunks = chunksOf(text);
  const ends: number[] = [];
  let at = 0;
  for (const c of chunks) {
    at += c.length;
    ends.push(at);
  }
  return { text, chunks, ends };
}

/**
 * Mean time of `fn` over enough runs to fill about a millisecond budget per megabyte: small inputs
 * are repeated (1 KB: 1,000 runs) so that timer resolution and one-off costs do not swamp them.
 */
function elapsed(fn: () => void, bytes = 1_000_000): number {
  const runs = Math.max(1, Math.round(1_000_000 / bytes));
  const start = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - start) / runs;
}

async function elapsedAsync(fn: () => Promise<void>): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}

type Reparser = { name: string; parse: (prefix: string) => unknown | Promise<unknown> };
const reparsers: Reparser[] = [
  { name: 'partial-json', parse: (p) => partialJsonParse(p) },
  { name: 'langchain', parse: (p) => langchainParse(p) },
  { name: 'ai-sdk', parse: (p) => aiSdkParse(p) },
];

function cases(): BenchCase[] {
  const out: BenchCase[] = [];
  for (const size of Object.keys(SIZES) as Size[]) {
    const sampled = SIZES[size] >= 100_000;
    out.push({
      name: `json/parse-floor-${size}`,
      unit: 'ms',
      note: 'one JSON.parse of the whole text (the floor: no partial values); small sizes: mean of repeated runs',
      setup: () => {
        const { text } = data(size);
        return {
          sample: () =>
            elapsed(() => {
              sink = JSON.parse(text);
            }, text.length),
        };
      },
    });
    out.push({
      name: `json/moat-${size}`,
      unit: 'ms',
      anchor: `json/parse-floor-${size}`,
      repeat: size === '1mb' ? 7 : 15,
      note: 'createPartialJsonParser: push every 8–32-char chunk, read the best-effort value after each; small sizes: mean of repeated runs',
      setup: () => {
        const { chunks } = data(size);
        return {
          sample: () =>
            elapsed(() => {
              const parser = createPartialJsonParser();
              for (const chunk of chunks) sink = parser.push(chunk);
              if (parser.state !== 'complete') throw new Error('moat parser did not complete');
            }, SIZES[size]),
        };
      },
    });
    for (const peer of reparsers) {
      out.push({
        name: `peer/${peer.name}-${size}`,
        unit: 'ms',
        anchor: `json/moat-${size}`,
        ...(size === '100kb' ? { target: { min: 300 } } : {}),
        repeat: sampled ? 3 : size === '10kb' ? 5 : 15,
        warmup: sampled ? 1 : 3,
        note: sampled
          ? `re-parses the prefix at every chunk; estimated from ${SAMPLE} evenly spaced chunk positions, scaled to all chunks`
          : 're-parses the whole prefix at every chunk (all chunks timed)',
        setup: () => {
          const { text, ends } = data(size);
          const positions = sampled
            ? Array.from({ length: SAMPLE }, (_, k) => ends[Math.floor(((k + 0.5) * ends.length) / SAMPLE)] as number)
            : ends;
          const scale = ends.length / positions.length;
          return {
            sample: async () =>
              scale *
              (await elapsedAsync(async () => {
                for (const end of positions) sink = await peer.parse(text.slice(0, end));
              })),
          };
        },
      });
    }
    out.push({
      name: `peer/streamparser-json-${size}`,
      unit: 'ms',
      anchor: `json/moat-${size}`,
      ...(size === '100kb' ? { target: { min: 1 } } : {}),
      repeat: size === '1mb' ? 7 : 15,
      note: '@streamparser/json fed every chunk (emits completed values only, no best-effort value per chunk)',
      setup: () => {
        const { chunks } = data(size);
        return {
          sample: () =>
            elapsed(() => {
              const parser = new JSONParser();
              parser.onValue = ({ value }) => {
                sink = value;
              };
              for (const chunk of chunks) parser.write(chunk);
            }, SIZES[size]),
        };
      },
    });
  }
  return out;
}

/** One string value of about `bytes` characters: a model writing a long file as one argument. */
function longStringText(bytes: number): string {
  const line = 'A line of the "file", with a tab\tand café ☕ in it.\n';
  return JSON.stringify({ path: 'notes.md', content: line.repeat(Math.ceil(bytes / line.length)) });
}

const LONG = { '5mb': 5_000_000, '20mb': 20_000_000 } as const;

/**
 * One long string, 5 MB and 20 MB of it, pushed in 8–32-char chunks with the value read after
 * each: the figure of issue #41 (0.65 s and 9.3 s before, the grown string flattened on every
 * push). Linear time keeps the 20 MB one near 4x the 5 MB one.
 */
function longStringCases(): BenchCase[] {
  return (Object.keys(LONG) as (keyof typeof LONG)[]).map((size) => ({
    name: `json/long-string-${size}`,
    unit: 'ms',
    ...(size === '20mb' ? { anchor: 'json/long-string-5mb', target: { max: 4.5 } } : {}),
    repeat: 5,
    warmup: 1,
    note: `one string value of ${size.replace('mb', ' MB')} (escapes and non-ASCII in it) pushed in 8–32-char chunks, the value read after each${size === '20mb' ? '; target: at most 4.5x the 5 MB one (linear: 4)' : ''}`,
    setup: () => {
      const chunks = chunksOf(longStringText(LONG[size]));
      return {
        sample: () => {
          // The sample before left tens of MB behind (its string, as blocks): collected before
          // this one is timed, as the runner does before each case, not in the middle of it.
          sink = undefined;
          (globalThis as { gc?: () => void }).gc?.();
          return elapsed(() => {
            const parser = createPartialJsonParser();
            for (const chunk of chunks) sink = parser.push(chunk);
            if (parser.state !== 'complete') throw new Error('moat parser did not complete');
          }, LONG[size]);
        },
      };
    },
  }));
}

// Ours (and the floor) at every size first, then the peers: the peers' garbage must not land on ours.
const all = [...cases(), ...longStringCases()];
const isOurs = (c: BenchCase) => c.name.startsWith('json/');
export const partialJsonCases = [...all.filter(isOurs), ...all.filter((c) => !isOurs(c))];

/** Time per byte of ours, largest ÷ smallest across the sizes: linear growth keeps it near 1. */
export function derivePartialJson(results: BenchResult[]): BenchResult[] {
  const perByte = (Object.keys(SIZES) as Size[])
    .map((size) => {
      const r = results.find((x) => x.name === `json/moat-${size}`);
      return r ? r.median / SIZES[size] : undefined;
    })
    .filter((x): x is number => x !== undefined);
  if (perByte.length < 2) return [];
  const spread = Math.max(...perByte) / Math.min(...perByte);
  return [
    {
      name: 'json/moat-per-byte-spread',
      unit: 'x',
      median: spread,
      min: spread,
      max: spread,
      samples: 1,
      ratio: spread,
      target: { max: 2 },
      note: 'largest ÷ smallest time per byte of json/moat-* across 1 KB … 1 MB (1 = perfectly linear)',
      where: 'node',
    },
  ];
}

export function keepSink(): unknown {
  return sink;
}
