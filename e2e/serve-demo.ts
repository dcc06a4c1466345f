/**
 * The built demo (`dist-demo/`) on a plain static server under a sub-path, as GitHub Pages
 * serves a project site: no cross-origin isolation headers, no CSP, no CORS headers (sealed tools
 * need none: the page reads the tools module from its own origin).
 * `node --import tsx e2e/serve-demo.ts [port] [base] [isolated]` (defaults 4173, /moat/): with
 * `isolated`, every response carries COOP and COEP, and the page is cross-origin isolated (as
 * `npm start` serves it).
 */
import { createReadStream, statSync } from 'node:fs';
import { createServer } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';

const port = Number(process.argv[2] ?? 4173);
const base = process.argv[3] ?? '/moat/';
const root = resolve(import.meta.dirname, '../dist-demo');
const headers: Record<string, string> = {
  ...(process.argv[4] === 'isolated'
    ? { 'cross-origin-opener-policy': 'same-origin', 'cross-origin-embedder-policy': 'require-corp' }
    : {}),
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.map': 'application/json',
};

createServer((req, res) => {
  const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
  if (!path.startsWith(base)) {
    res.writeHead(404, { 'content-type': 'text/plain' }).end(`Not under ${base}`);
    return;
  }
  let file = normalize(join(root, path.slice(base.length)));
  if (!file.startsWith(root)) {
    res.writeHead(403).end();
    return;
  }
  try {
    if (statSync(file).isDirectory()) file = join(file, 'index.html');
    statSync(file);
  } catch {
    res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found');
    return;
  }
  res.writeHead(200, { ...headers, 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
  createReadStream(file).pipe(res);
}).listen(port, '127.0.0.1', () => console.log(`demo on http://127.0.0.1:${port}${base}`));
