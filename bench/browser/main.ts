// The benchmark page: registers the browser cases and lets the runner call them one by one.
import { type BenchCase, measure } from '../case';
import { anchorCases } from './anchors';
import { invokerCases } from './invoker';
import { poolCases } from './pool';
import { storeCases } from './store';

const cases: BenchCase[] = [...anchorCases, ...poolCases, ...storeCases, ...invokerCases];

declare global {
  interface Window {
    moatBench: {
      list(): Pick<BenchCase, 'name' | 'unit' | 'anchor' | 'target' | 'note'>[];
      run(name: string): Promise<number[]>;
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
  isolated: crossOriginIsolated,
};
