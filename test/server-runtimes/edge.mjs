/**
 * moat-sdk/server in workerd, Cloudflare's runtime, through Miniflare (see checks.mjs); the
 * provider is served by Node. Miniflare is not a dependency of this project:
 *   npm i --prefix /tmp/miniflare miniflare
 *   MINIFLARE=/tmp/miniflare/node_modules/miniflare/dist/src/index.js node --import tsx test/server-runtimes/edge.mjs
 */
import { build } from 'esbuild';
import { serveRoute } from '../node-route.ts';
import { check, heldUpstream, KEY } from './checks.mjs';

const { Miniflare } = await import(process.env.MINIFLARE ?? 'miniflare');
const bundled = await build({
  entryPoints: [new URL('./worker.mjs', import.meta.url).pathname],
  bundle: true,
  format: 'esm',
  platform: 'neutral',
  target: 'es2022',
  write: false,
});
const upstream = heldUpstream();
const provider = await serveRoute(async (request) => upstream.handler(request));
const worker = new Miniflare({
  modules: true,
  script: bundled.outputFiles[0].text,
  compatibilityDate: '2025-01-01',
  bindings: { UPSTREAM: provider.url, API_KEY: KEY },
});
const url = new URL(await worker.ready).origin;
const result = await check(url, upstream);
console.log('workerd (Miniflare) as in Node:', JSON.stringify(result));
await worker.dispose();
await provider.close();
