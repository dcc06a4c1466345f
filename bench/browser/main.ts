// The benchmark page: registers the browser cases and lets the runner call them one by one.
import { type BenchCase, measure, measurePaired } from '../case';
import { agentCases } from './agent';
import { anchorCases } from './anchors';
import { codeCases } from './code';
import { invokerCases } from './invoker';
import { poolCases } from './pool';
import { storeCases } from './store';

const cases: BenchCase[] = [...anchorCases, ...poolCases, ...storeCases, ...invokerCases, ...agentCases, ...codeCases];

declare global {
  interface Window {
    moatBench: {
      list(): Pick<BenchCase, 'name' | 'unit' | 'anchor' | 'target' | 'note'>[];
      run(name: string): Promise<number[]>;
      runPaired(name: string, anchor: string): Promise<{ samples: number[]; anchorSamples: number[] }>;
      isolated: boolean;
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
};
