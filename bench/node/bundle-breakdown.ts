/**
 * What is in a bench bundle: `npx tsx bench/node/bundle-breakdown.ts [entry]` builds the entry as
 * bench/node/bundle.ts does (Vite, minified, ES modules) and prints each chunk (loaded at once or
 * on demand, min and min+gzip bytes) and, for the chunks loaded at once, each module's rendered
 * size, largest first. The default entry is bench/bundle/moat-app.ts (`bundle/main-gz`).
 */
import { gzipSync } from 'node:zlib';
import { chunksOf } from './bundle';

const root = new URL('../..', import.meta.url).pathname;
const entry = process.argv[2] ?? 'bench/bundle/moat-app.ts';
const chunks = await chunksOf(entry);
const atOnce = new Set<string>();
const visit = (name: string) => {
  if (atOnce.has(name)) return;
  atOnce.add(name);
  for (const next of chunks.get(name)?.imports ?? []) visit(next);
};
for (const c of chunks.values()) if (c.isEntry) visit(c.fileName);

let total = 0;
const byFolder = new Map<string, number>();
for (const c of chunks.values()) {
  const code = c.code ?? '';
  const gz = gzipSync(code, { level: 9 }).length;
  const loaded = atOnce.has(c.fileName);
  if (loaded) total += gz;
  console.log(`${loaded ? 'at once  ' : 'on demand'} ${c.fileName}: ${code.length} B, ${gz} B gzipped`);
  if (!loaded) continue;
  const modules = Object.entries(c.modules ?? {}).sort(([, a], [, b]) => b.renderedLength - a.renderedLength);
  for (const [id, m] of modules) {
    // A dependency by its package (node_modules may be a link outside the checkout).
    const name = id.replace(/^.*\/node_modules\//, 'node_modules/').replace(root, '');
    console.log(`  ${String(m.renderedLength).padStart(7)} ${name}`);
    const folder = name.split('/').slice(0, 2).join('/');
    byFolder.set(folder, (byFolder.get(folder) ?? 0) + m.renderedLength);
  }
}
console.log('\nRendered bytes loaded at once, by folder (before minification):');
for (const [folder, bytes] of [...byFolder].sort(([, a], [, b]) => b - a))
  console.log(`  ${String(bytes).padStart(7)} ${folder}`);
console.log(`\nLoaded at once: ${total} B min+gzip (bundle/main-gz counts the same)`);
