/**
 * What a benchmark case is. Cases run in headless Chromium (`bench/browser/`) or in Node
 * (`bench/node/`); the runner repeats each and reports median, min and max, and the ratio of the
 * median to the case's anchor measured in the same run.
 */

/** `ms` per operation (lower is better), `ops/s` (higher is better), a plain `count`, `MB`, or `x`, a derived ratio. */
export type BenchUnit = 'ms' | 'ops/s' | 'count' | 'MB' | 'x';

export interface BenchCase {
  /** `area/case`, stable across runs. */
  name: string;
  unit: BenchUnit;
  /** The case this one is compared with; `ratio` = median ÷ anchor's (ours ÷ anchor for ops/s). */
  anchor?: string;
  /**
   * What the issue asks for: at most `max`, at least `min`, of the ratio (or, with
   * `of: 'median'`, of the case's own figure, as for a time or a size in absolute terms).
   */
  target?: { max?: number; min?: number; of?: 'median' };
  /** Shown in RESULTS.md: how the figure was obtained, what it includes. */
  note?: string;
  /**
   * Idle time before each sample (default none): lets what the sample before left behind (a
   * worker thread being torn down, say) finish rather than overlap this one.
   */
  pauseMs?: number;
  /** Measured repetitions (default 15) after `warmup` discarded ones (default 3). */
  repeat?: number;
  warmup?: number;
  setup(): Promise<BenchRun> | BenchRun;
}

export interface BenchRun {
  /** One measurement, in the case's unit. */
  sample(): Promise<number> | number;
  teardown?(): Promise<void> | void;
}

export interface BenchResult {
  name: string;
  unit: BenchUnit;
  median: number;
  min: number;
  max: number;
  samples: number;
  anchor?: string;
  /** The anchor's median from the samples taken alternately with this case's. */
  anchorMedian?: number;
  ratio?: number;
  /**
   * The median of each sample's ratio to the anchor sample taken beside it: when the machine
   * drifts between states in mid-run, each pair still sees one state.
   */
  pairRatio?: number;
  target?: { max?: number; min?: number; of?: 'median' };
  note?: string;
  where: 'browser' | 'node';
}

/** Run one case: warm up, measure, tear down. */
export async function measure(c: BenchCase): Promise<number[]> {
  const run = await c.setup();
  const sample = paused(run, c.pauseMs);
  const samples: number[] = [];
  try {
    for (let i = 0; i < (c.warmup ?? 3); i++) await sample();
    for (let i = 0; i < (c.repeat ?? 15); i++) samples.push(await sample());
  } finally {
    await run.teardown?.();
  }
  return samples;
}

/**
 * Run a case and its anchor alternately so that both see the same machine: drift (disk flushes,
 * other load) lands on both instead of skewing the ratio. The order flips every pair (anchor
 * first, then case first, …): neither side always runs right after the other's leftovers.
 */
export async function measurePaired(
  c: BenchCase,
  anchor: BenchCase,
): Promise<{ samples: number[]; anchorSamples: number[] }> {
  const run = await c.setup();
  const anchorRun = await anchor.setup();
  // Both pause as long as either asks, so that neither follows the other's leftovers.
  const pause = Math.max(c.pauseMs ?? 0, anchor.pauseMs ?? 0);
  const sample = paused(run, pause);
  const anchorSample = paused(anchorRun, pause);
  const samples: number[] = [];
  const anchorSamples: number[] = [];
  try {
    for (let i = 0; i < Math.max(c.warmup ?? 3, anchor.warmup ?? 3); i++) {
      await anchorSample();
      await sample();
    }
    const repeat = Math.max(c.repeat ?? 15, 5);
    for (let i = 0; i < repeat; i++) {
      if (i % 2 === 0) {
        anchorSamples.push(await anchorSample());
        samples.push(await sample());
      } else {
        samples.push(await sample());
        anchorSamples.push(await anchorSample());
      }
    }
  } finally {
    await run.teardown?.();
    await anchorRun.teardown?.();
  }
  return { samples, anchorSamples };
}

function paused(run: BenchRun, pauseMs = 0): () => Promise<number> {
  if (pauseMs <= 0) return async () => run.sample();
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
    return run.sample();
  };
}

/** Time `fn` with the best clock there is, in ms. */
export async function time(fn: () => unknown): Promise<number> {
  const start = performance.now();
  await fn();
  return performance.now() - start;
}
