// The benchmark page: registers the browser cases and lets the runner call them one by one.
import { createWorkerPool, type WorkerPool } from '../../src/pool/worker-pool';
import { type BenchCase, measure, measurePaired } from '../case';
import poolToolsMiniUrl from '../workers/pool-tools-mini.worker.ts?worker&url';
import { agentCases } from './agent';
import { anchorCases } from './anchors';
import { codeCases } from './code';
import { contextCases } from './context';
import { framedAnchorCases } from './framed-anchors';
import { invokerCases } from './invoker';
import { localCases } from './local';
import { mcpCases } from './mcp';
import { multimodalCases } from './multimodal';
import { outputCases } from './output';
import { poolCases } from './pool';
import { storeCases } from './store';
import { wideTurnCases } from './wide-turn';

let sealed: WorkerPool | undefined;

const cases: BenchCase[] = [
  ...anchorCases,
  ...framedAnchorCases,
  ...poolCases,
  ...storeCases,
  ...invokerCases,
  ...wideTurnCases,
  ...agentCases,
  ...contextCases,
  ...outputCases,
  ...codeCases,
  ...multimodalCases,
  ...mcpCases,
  ...localCases,
];

declare global {
  interface Window {
    moatBench: {
      list(): Pick<BenchCase, 'name' | 'unit' | 'anchor' | 'target' | 'note'>[];
      run(name: string): Promise<number[]>;
      runPaired(name: string, anchor: string): Promise<{ samples: number[]; anchorSamples: number[] }>;
      isolated: boolean;
      /** A sealed pool of two workers, kept open until closeSealedPool (bench/processes.ts measures it). */
      openSealedPool(): Promise<void>;
      closeSealedPool(): Promise<void>;
    };
  }
}

window.moatBench = {
  list: () => cases.map(({ setup: _setup, repeat: _repeat, warmup: _warmup, ...info }) => info),
  run: (name) => {
    const c = cases.find((x) => x.name === name);
    if (!c) throw new Error(`No browser bench case '${name}'`);
    return measure(c);
  },
  runPaired: (name, anchor) => {
    const c = cases.find((x) => x.name === name);
    const a = cases.find((x) => x.name === anchor);
    if (!c || !a) throw new Error(`No browser bench case '${c ? anchor : name}'`);
    return measurePaired(c, a);
  },
  isolated: crossOriginIsolated,
  openSealedPool: async () => {
    sealed = createWorkerPool({ worker: poolToolsMiniUrl, size: 2 });
    await Promise.all([0, 1].map((i) => sealed?.call({ id: `p${i}`, name: 'sleep', args: { ms: 20 } })));
  },
  closeSealedPool: async () => {
    await sealed?.close();
    sealed = undefined;
  },
};
