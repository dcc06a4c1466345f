// A storm of calls, innocent and hostile, through pools of 1, 2 and 4 workers: a hostile call
// costs only itself. Runs once (the 'storm' project): the pool takes the same path on every page.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { settle, testPool, watchRuns } from '../../test/pool-helpers';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { WorkerCrashedError } from '../errors/worker-crashed-error';
import { resultValue, type ToolResult } from './pool-options';
import { createWorkerPool, type WorkerPool } from './worker-pool';

const N = 1000;
// The mix of 300 (add 152, sleep 53, boom 48, spin 47), scaled to 1,000.
const MIX: [string, number][] = [
  ['add', 507],
  ['sleep', 177],
  ['boom', 160],
  ['spin', 156],
];
const INNOCENT = new Set(['add', 'sleep']);
/** The spin was stopped after 300 ms; 156 of them at that would take 47 s of CPU per storm. */
const SPIN_TIMEOUT_MS = 30;

function shuffled(seed: number): string[] {
  const names = MIX.flatMap(([name, count]) => Array.from({ length: count }, () => name));
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  for (let i = names.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [names[i], names[j]] = [names[j] as string, names[i] as string];
  }
  return names;
}

async function storm(size: number, idempotent: boolean, sealed: boolean) {
  // Built into one file by test/built-workers.ts (a worker is started for every spin).
  const script = new URL(
    `../../test/.generated/${idempotent ? 'storm-idempotent' : 'storm'}.worker.js`,
    import.meta.url,
  );
  const pool = createWorkerPool({
    worker: sealed ? script : () => new Worker(script, { type: 'module' }),
    size,
    quarantineWorkers: 2,
  });
  const channel = new BroadcastChannel('moat-storm');
  const started = new Set<string>();
  const done = new Set<string>();
  channel.onmessage = (e) => {
    const [what, id] = (e.data as string).split(':') as [string, string];
    (what === 'start' ? started : done).add(id);
  };
  await pool.warm();
  const names = shuffled(size * 7919 + (idempotent ? 1 : 0));
  const settled = new Map<string, number>();
  const outcomes = await Promise.all(
    names.map((name, i) => {
      const id = `${name}-${i}`;
      const args = name === 'add' ? { a: i, b: 1 } : name === 'sleep' ? { ms: 5 } : {};
      const options = name === 'spin' ? { timeoutMs: SPIN_TIMEOUT_MS } : { timeoutMs: 10_000 };
      const count = () => settled.set(id, (settled.get(id) ?? 0) + 1);
      return pool.call({ id, name, args }, options).then(
        (value) => {
          count();
          return { id, name, ok: true as const, value };
        },
        (error: Error) => {
          count();
          return { id, name, ok: false as const, error };
        },
      );
    }),
  );
  // The workers' reports come on a channel of their own, after or beside the results: wait until
  // every innocent call that succeeded has said it finished and every one that failed that it
  // started (a plain worker's; a sealed one cannot reach the page's channel).
  if (!sealed) {
    const unheard = () =>
      outcomes.filter((o) => INNOCENT.has(o.name) && !(o.ok ? done : started).has(o.id)).map((o) => o.id);
    await vi.waitFor(() => expect(unheard()).toEqual([]), { timeout: 10_000, interval: 20 });
  }
  channel.close();
  const stats = pool.stats;
  await pool.close();
  return { outcomes, settled, started, done, stats };
}

// Sealed (the default) at every size; plain at one, where the workers' own reports of what
// started and finished (a BroadcastChannel the page hears; a sealed worker's opaque origin cannot
// reach it) check the pool's verdicts independently. The pool's code is the same in both modes.
describe.each([
  [1, 'sealed'],
  [2, 'sealed'],
  [4, 'sealed'],
  [2, 'plain'],
] as const)(
  `a storm of ${N} calls, pool of %i, %s workers (cross-origin isolated: ${crossOriginIsolated})`,
  (size, mode) => {
    it.each([false, true])(
      'idempotent innocents: %s',
      async (idempotent) => {
        const sealed = mode === 'sealed';
        const { outcomes, settled, started, done, stats } = await storm(size, idempotent, sealed);
        // Every call settles exactly once.
        expect(settled.size).toBe(N);
        expect([...settled.values()].every((n) => n === 1)).toBe(true);
        const innocentFailures = outcomes.filter((o) => INNOCENT.has(o.name) && !o.ok);
        for (const failure of innocentFailures) {
          if (failure.ok) continue;
          // Never a finished call reported failed, never a call that had not started.
          if (!sealed) {
            expect(done.has(failure.id), `${failure.id} finished but was reported failed`).toBe(false);
            expect(started.has(failure.id), `${failure.id} never started but failed`).toBe(true);
          }
          // Each names the call that caused its worker to be stopped.
          expect(failure.error).toBeInstanceOf(WorkerCrashedError);
          expect(
            (failure.error as WorkerCrashedError).culprit?.toolName,
            `${failure.id}: ${failure.error.message}`,
          ).toBe('spin');
        }
        if (idempotent) expect(innocentFailures).toEqual([]);
        // The innocent results are right; the hostile calls fail with their own errors.
        for (const o of outcomes) {
          if (o.name === 'add' && o.ok) expect(o.value.content).toBe(String(Number(o.id.split('-')[1]) + 1));
          if (o.name === 'boom') expect(o.ok ? 'resolved' : o.error.name).toBe('ToolExecutionError');
          if (o.name === 'spin') expect(o.ok ? 'resolved' : o.error.name).toBe('ToolTimeoutError');
        }
        expect(stats.quarantined).toBeGreaterThan(100);
        console.log(
          `size ${size}, ${mode}, idempotent ${idempotent}, isolated ${crossOriginIsolated}: innocent failures ${innocentFailures.length}, rerun ${stats.rerun}, recovered ${stats.recovered}, restarted ${stats.restarted}, quarantined ${stats.quarantined}`,
        );
      },
      120_000,
    );
  },
);

// The test tools' own faults, mixed at random: crashes and errors thrown outside any call beside
// failures and endless loops. The workers' run reports check that nothing ran twice.
describe('random faults', () => {
  let pool: WorkerPool | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });
  it('settles 1,000 calls through a pool of 2 with random faults: right result or right error, none lost or duplicated', async () => {
    pool = testPool({ size: 2, timeoutMs: 5_000 });
    const watch = await watchRuns();
    let seed = 7;
    const random = () => {
      seed = (seed * 16_807) % 2_147_483_647;
      return seed / 2_147_483_647;
    };
    type Kind = 'echo' | 'slow' | 'fail' | 'spin' | 'crash' | 'throw_outside';
    const plan: { kind: Kind; id: string }[] = Array.from({ length: 1000 }, (_, i) => {
      const r = random();
      const kind: Kind =
        r < 0.75
          ? 'echo'
          : r < 0.88
            ? 'slow'
            : r < 0.97
              ? 'fail'
              : r < 0.98
                ? 'spin'
                : r < 0.99
                  ? 'crash'
                  : 'throw_outside';
      return { kind, id: `fault_${i}` };
    });
    const outcomes = await Promise.all(
      plan.map(({ kind, id }) => {
        const args =
          kind === 'echo'
            ? { text: id }
            : kind === 'slow'
              ? { ms: 5, label: id }
              : kind === 'fail'
                ? { message: id }
                : kind === 'spin'
                  ? { ms: -1 }
                  : {};
        return settle(
          pool?.call({ id, name: kind, args }, kind === 'spin' ? { timeoutMs: 150 } : {}) as Promise<never>,
        );
      }),
    );
    // The run reports of the calls that succeeded: each was sent before its result.
    const succeeded = plan.filter(({ kind }, i) => (kind === 'echo' || kind === 'slow') && outcomes[i]?.ok);
    await watch.arrived(
      succeeded.map(({ id }) => id),
      10_000,
    );
    watch.stop();

    const ranCount = new Map<string, number>();
    for (const id of watch.runs) ranCount.set(id, (ranCount.get(id) ?? 0) + 1);
    expect([...ranCount.values()].every((n) => n === 1)).toBe(true); // nothing ran twice

    const tally: Record<string, number> = {};
    plan.forEach(({ kind, id }, i) => {
      const outcome = outcomes[i] as { ok: true; value: ToolResult } | { ok: false; error: unknown };
      const collateral = !outcome.ok && outcome.error instanceof WorkerCrashedError;
      let right: boolean;
      switch (kind) {
        case 'echo':
          right = (outcome.ok && (resultValue(outcome.value) as { text: string }).text === id) || collateral;
          break;
        case 'slow':
          right = (outcome.ok && (resultValue(outcome.value) as { label: string }).label === id) || collateral;
          break;
        case 'fail':
          right =
            (!outcome.ok &&
              outcome.error instanceof ToolExecutionError &&
              (outcome.error as ToolExecutionError).toolCallId === id) ||
            collateral;
          break;
        case 'spin':
          right = (!outcome.ok && outcome.error instanceof ToolTimeoutError) || collateral;
          break;
        default:
          right = collateral;
      }
      if (outcome.ok && (kind === 'echo' || kind === 'slow')) expect(ranCount.get(id)).toBe(1);
      const key = `${kind}:${outcome.ok ? 'ok' : (outcome.error as Error).name}`;
      tally[key] = (tally[key] ?? 0) + 1;
      if (!right) throw new Error(`call ${id} (${kind}) settled wrongly: ${outcome.ok ? 'ok' : String(outcome.error)}`);
    });
    expect(outcomes).toHaveLength(1000);
    // Most well-behaved calls must have succeeded, not been swept up with the faulty ones.
    expect((tally['echo:ok'] ?? 0) / plan.filter((p) => p.kind === 'echo').length).toBeGreaterThan(0.5);
    expect(pool.stats.running).toBe(0);
    expect(pool.stats.queued).toBe(0);
  }, 60_000);
});
