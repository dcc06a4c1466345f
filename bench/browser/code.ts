/**
 * The code sandbox: a warm run's round trip against a raw postMessage one, and a new sandbox's
 * first result against a bare worker's cold start.
 */
import { createCodeSandbox } from '../../src/sandbox/code-sandbox';
import { type BenchCase, time } from '../case';
import { COLD_START_PAUSE_MS, ROUND_TRIPS } from './anchors';

export const codeCases: BenchCase[] = [
  {
    name: 'code/run-rtt',
    unit: 'ms',
    // Each run has a realm of its own (a fresh worker in the running frame, stopped when it ends:
    // runs cannot touch each other), so its floor is a worker's start, not a message's round trip.
    anchor: 'anchor/worker-cold-start',
    target: { max: 1.5 },
    note: `sandbox.run('1 + 1') on a warm sandbox: parse and rewrite on the page, a fresh worker in the sealed frame, eval, the result back, the worker stopped; mean of ${ROUND_TRIPS} sequential runs`,
    async setup() {
      const sandbox = createCodeSandbox();
      for (let i = 0; i < 20; i++) await sandbox.run('1 + 1');
      return {
        sample: async () =>
          (await time(async () => {
            for (let i = 0; i < ROUND_TRIPS; i++) await sandbox.run('1 + 1');
          })) / ROUND_TRIPS,
        teardown: () => sandbox.close(),
      };
    },
  },
  {
    name: 'code/cold-start',
    unit: 'ms',
    anchor: 'anchor/worker-cold-start',
    note: 'createCodeSandbox() until the first result of 1 + 1: a sandboxed frame, a blob worker inside it, the run (the rewriting code already loaded)',
    pauseMs: COLD_START_PAUSE_MS,
    async setup() {
      const warm = createCodeSandbox();
      await warm.run('1');
      warm.close();
      return {
        sample: () =>
          time(async () => {
            const sandbox = createCodeSandbox();
            await sandbox.run('1 + 1');
            sandbox.close();
          }),
      };
    },
  },
];
