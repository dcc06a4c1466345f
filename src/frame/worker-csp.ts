/**
 * A Content-Security-Policy for the tool worker's script. The network guard cannot close dynamic
 * `import()` from JavaScript; the browser can, when the worker script is served with this header
 * (a module worker takes its CSP from its own script's response).
 *
 * - `'deny'`: scripts only from the worker's own origin, no connections at all.
 * - a list of origins: scripts from the worker's origin, connections only to those origins.
 *
 * `import()` of a same-origin URL stays possible (`script-src 'self'`): its URL reaches your own
 * server. Serve it from every host the app runs on (dev server, preview, static host).
 *
 * @example
 * // vite.config.ts: a plugin that adds the header to the worker script
 * res.setHeader('Content-Security-Policy', workerContentSecurityPolicy('deny'));
 */
export function workerContentSecurityPolicy(network: 'deny' | readonly string[]): string {
  const connect = network === 'deny' ? "'none'" : network.length === 0 ? "'none'" : network.map(cspOrigin).join(' ');
  return [
    `default-src 'none'`,
    `script-src 'self'`,
    `connect-src ${connect}`,
    `worker-src 'none'`,
    `font-src 'none'`,
    `img-src 'none'`,
  ].join('; ');
}

/**
 * The origin of `value` (a URL or an origin), as a Content-Security-Policy source: one exact host,
 * nothing that could widen the policy (a `*` host, a `;` starting another directive).
 */
export function cspOrigin(value: string): string {
  const bad = () => new TypeError(`Expected an origin such as 'https://api.example.com', got ${JSON.stringify(value)}`);
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad();
  }
  if (url.origin === 'null' || /[;,\s]/.test(value) || !/^[a-z0-9.:[\]-]+$/i.test(url.host)) throw bad();
  return url.origin;
}
