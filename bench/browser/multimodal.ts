// Images from tools: what a 5 MB image costs from a sealed worker tool to the page.
import { createWorkerPool } from '../../src/pool/worker-pool';
import { type BenchCase, time } from '../case';
import imageToolUrl from '../workers/image-tool.worker.ts?worker&url';

export const multimodalCases: BenchCase[] = [
  {
    name: 'multimodal/image-result-5mb',
    unit: 'ms',
    anchor: 'anchor/framed-5mb-transfer',
    target: { max: 1.5 },
    note: 'a sealed worker tool returns a 5 MB PNG (bytes): read into base64 in the worker, sent as a string, the call settled on the page with the image beside its text',
    async setup() {
      const pool = createWorkerPool({ worker: imageToolUrl, size: 1 });
      await pool.call({ id: 'warm', name: 'image', args: {} });
      let n = 0;
      return {
        sample: () => time(() => pool.call({ id: `image_${n++}`, name: 'image', args: {} })),
        teardown: () => pool.close(),
      };
    },
  },
];
