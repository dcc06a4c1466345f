/**
 * Vitest globalSetup: some browser tests start hundreds of workers (the storm). Served by the
 * dev server, a module worker fetches and revalidates each of its ~40 modules (about 450 ms a
 * start here); built into one file, as an app ships it, it starts in tens of milliseconds. This
 * builds those workers once per run into `test/.generated/`.
 */
import { resolve } from 'node:path';
import { build } from 'vite';

const root = resolve(import.meta.dirname, '..');
const WORKERS = ['storm', 'storm-idempotent'];

export default async function setup() {
  for (const name of WORKERS) {
    await build({
      root,
      configFile: false,
      logLevel: 'error',
      resolve: { alias: { 'moat-sdk/worker': resolve(root, 'worker/index.ts') } },
      build: {
        outDir: resolve(root, 'test/.generated'),
        emptyOutDir: false,
        minify: false,
        target: 'es2022',
        lib: {
          entry: resolve(root, `test/workers/${name}.worker.ts`),
          formats: ['es'],
          fileName: () => `${name}.worker.js`,
        },
        rolldownOptions: { output: { codeSplitting: false } },
      },
    });
  }
}
