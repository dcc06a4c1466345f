/**
 * moat-sdk/server in Deno or Bun, from its sources (see checks.mjs):
 *   npx -y deno@2 run --allow-net --allow-read --unstable-sloppy-imports test/server-runtimes/deno-bun.mjs
 *   npx -y bun@1 test/server-runtimes/deno-bun.mjs
 */
import { createModelProxy } from '../../src/server/index.ts';
import { check, heldUpstream, routeOptions } from './checks.mjs';

function serve(handler) {
  if (globalThis.Deno) {
    const server = Deno.serve({ port: 0, hostname: '127.0.0.1', onListen() {} }, handler);
    return { url: `http://127.0.0.1:${server.addr.port}`, close: () => server.shutdown() };
  }
  const server = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: handler });
  return { url: `http://127.0.0.1:${server.port}`, close: () => server.stop(true) };
}

const upstream = heldUpstream();
const provider = serve(upstream.handler);
const route = serve(createModelProxy(routeOptions(provider.url)));
const result = await check(route.url, upstream);
console.log(
  globalThis.Deno ? `Deno ${Deno.version.deno}` : `Bun ${Bun.version}`,
  'as in Node:',
  JSON.stringify(result),
);
await route.close();
await provider.close();
