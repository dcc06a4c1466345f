// The first-load floor: the page's least code, then the tools module the pool page starts, in a
// bare sealed frame (the sealed CSP, a blob worker importing the module's text, fetched while the
// frame starts), until that worker says it is up.
import { bareFramedWorker, IMPORTER } from '../browser/bare-frame';
import toolsUrl from '../workers/pool-tools-mini.worker.ts?worker&url';
import { report } from './report';

const codeReady = performance.now();
await bareFramedWorker(
  IMPORTER,
  fetch(toolsUrl).then((response) => response.text()),
);
report(codeReady);
