/**
 * `moat-sdk/server`: the server side of an app whose page must not hold the model provider's key.
 * A fetch handler (web-standard `Request` and `Response`, no `node:` import) for Node, Deno, Bun
 * and edge functions; the page's model client points its `baseURL` at it.
 */

export { createModelProxy, type ModelProxy } from './model-proxy';
export type { ModelProxyOptions, ProxyAuth, ProxyProvider } from './proxy-options';
