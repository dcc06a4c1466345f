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
  const connect = network === 'deny' ? "'none'" : network.length === 0 ? "'none'" : network.map(checkOrigin).join(' ');
  return [
    `default-src 'none'`,
    `script-src 'self'`,
    `connect-src ${connect}`,
    `worker-src 'none'`,
    `font-src 'none'`,
    `img-src 'none'`,
  ].join('; ');
}

function checkOrigin(origin: string): string {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    throw new TypeError(`Expected an origin such as 'https://api.example.com', got ${JSON.stringify(origin)}`);
  }
  if (url.origin === 'null' || /[;,\s]/.test(origin))
    throw new TypeError(`Expected an origin such as 'https://api.example.com', got ${JSON.stringify(origin)}`);
  return url.origin;
}
