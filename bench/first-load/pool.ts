// First load of a pool: the page imports createWorkerPool from moat-sdk's front door and calls one
// tool of a sealed pool (the default), as pool/cold-start does in a warm page.
import { createWorkerPool } from '../../src/index';
import toolsUrl from '../workers/pool-tools-mini.worker.ts?worker&url';
import { report } from './report';

const codeReady = performance.now();
const pool = createWorkerPool({ worker: toolsUrl, size: 1 });
await pool.call({ id: 'first', name: 'noop', args: { i: 1 } });
report(codeReady);
