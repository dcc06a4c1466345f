import { createWorkerPool } from 'moat-sdk';
import { framedWorkers, resultValue } from 'moat-sdk/pool';

// webpack.config.js names framedWorkers(): webpack bundles the tools module as a worker and writes
// its bundle's address here.
const pool = createWorkerPool({ worker: framedWorkers(new URL('./tools.worker.js', import.meta.url)) });

// Where the page says how the call went; scripts/test-package.ts reads it.
const show = (id, text) => {
  const element = document.getElementById(id);
  if (element) element.textContent = text;
};
try {
  show('tool', String(resultValue(await pool.call({ id: 'c', name: 'multiply', args: { a: 6, b: 7 } }))));
  document.body.dataset.state = 'done';
} catch (error) {
  show('error', error instanceof Error ? `${error.name}: ${error.message}` : String(error));
  document.body.dataset.state = 'error';
} finally {
  await pool.close();
}
