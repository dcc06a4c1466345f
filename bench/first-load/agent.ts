// First load of an agent: the page imports createAgent and createWorkerPool from moat-sdk's front
// door; a scripted model (no network) asks for one call of a sealed pool's tool. Reported at the
// run's first tool-finished.
import { createAgent, createWorkerPool } from '../../src/index';
import { scriptedModel } from '../../src/models/scripted-model';
import toolsUrl from '../workers/pool-tools-mini.worker.ts?worker&url';
import { report } from './report';

const codeReady = performance.now();
const pool = createWorkerPool({ worker: toolsUrl, size: 1 });
const model = scriptedModel((messages) =>
  messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ name: 'noop', args: { i: 1 } }] },
);
const agent = createAgent({ model, pool });
for await (const event of agent.stream('Call noop once.')) {
  if (event.type === 'tool-finished') {
    report(codeReady);
    break;
  }
  if (event.type === 'error') throw event.error;
}
