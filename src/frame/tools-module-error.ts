/**
 * What an error says when the pool cannot load a tools module: the cause, the module's address
 * as a person can read it, and the line that gives the pool a built tools module in each
 * bundler. Most such failures are one mistake: the page handed the pool the address of the
 * module's source (`new URL('./tools.worker.ts', import.meta.url)` after `vite build` is a data:
 * URL of the TypeScript text; webpack copies the file as it is; esbuild leaves the URL as it is)
 * instead of its bundle's. The lines are the ones docs/bundlers.md shows and
 * scripts/test-package.ts builds and runs.
 */

/** Where the bundlers' lines are explained, reachable from the registry's page. */
export const BUNDLERS_GUIDE = 'https://github.com/moat-sdk/moat/blob/main/docs/bundlers.md';

/** How to give the pool the tools module's bundle, per bundler, in the words of the page's code. */
const HOW =
  "The pool needs the tools module's bundle: " +
  "with Vite, import toolsUrl from './tools.worker.ts?worker&url'; " +
  "with webpack 5, framedWorkers(new URL('./tools.worker.js', import.meta.url)), with 'framedWorkers() from moat-sdk/pool' in module.parser.javascript.worker and optimization.splitChunks.chunks: (chunk) => !chunk.hasRuntime(); " +
  "with esbuild, the tools module as an entry point of its own and new URL('./tools.worker.js', import.meta.url). " +
  `See ${BUNDLERS_GUIDE}`;

/**
 * The message for a tools module at `url` that could not be loaded because of `cause` (a
 * clause: "HTTP 404", "it was answered as 'video/mp2t', not JavaScript"), with what to write
 * instead.
 *
 * @example
 * throw new ModuleGraphError(toolsModuleError(url, `HTTP ${response.status}`));
 */
export function toolsModuleError(url: string, cause: string): string {
  return `Could not load the tools module ${readableUrl(url)}: ${cause}. ${HOW}`;
}

/** Longer than this, a URL is shortened in a message. */
const MAX_URL = 200;

/**
 * A URL fit for a message: a data: URL by its media type and length, never its payload (a
 * module inlined by a build is thousands of characters of base64); any other URL whole, or its
 * start and end when it is very long.
 */
export function readableUrl(url: string): string {
  const data = /^data:([^;,]*)/i.exec(url);
  if (data) return `(a data: URL of ${data[1] || 'text/plain'}, ${url.length.toLocaleString('en')} characters)`;
  if (url.length <= MAX_URL) return url;
  return `${url.slice(0, MAX_URL / 2)}…${url.slice(-MAX_URL / 4)} (${url.length.toLocaleString('en')} characters)`;
}
