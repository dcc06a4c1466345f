// webpack 5 bundles a worker where it sees `new Worker(new URL('…', import.meta.url))`. The pool
// takes the tools module's address instead: `worker` names `framedWorkers(new URL(…))` as a place
// where a worker's address is written too, and the worker's bundle is kept whole (one file: the
// pool reads it from the page and runs it sealed, where webpack's `importScripts` of a split-off
// chunk could not load).
export default {
  mode: 'production',
  context: import.meta.dirname,
  entry: './main.js',
  output: { path: `${import.meta.dirname}/dist` },
  module: { parser: { javascript: { worker: ['framedWorkers() from moat-sdk/pool', '...'] } } },
  optimization: { splitChunks: { chunks: (chunk) => !chunk.hasRuntime() } },
};
