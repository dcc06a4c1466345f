/**
 * Module-loader hooks (Node's `module.register`) that let `@modelcontextprotocol/conformance`'s CLI
 * run on Node 20. Its bundle imports `globSync` from 'fs', which Node 22 added; on Node 20 the
 * import fails at link time, before any command runs. These hooks rewrite that one import in
 * that one file to take `globSync` from ./glob-sync-shim.mjs instead. Nothing in node_modules changes.
 */
const CLI = /\/node_modules\/@modelcontextprotocol\/conformance\/dist\/index\.js$/;
const IMPORT = 'import{existsSync as a,globSync as o,mkdtempSync as s,promises as c,readFileSync as l}from"fs";';
const SHIM = new URL('./glob-sync-shim.mjs', import.meta.url).href;

export async function load(url, context, nextLoad) {
  const loaded = await nextLoad(url, context);
  if (!CLI.test(url)) return loaded;
  const source = String(loaded.source);
  if (!source.includes(IMPORT))
    throw new Error(`${url}: its fs import is not the one these hooks rewrite (another version of the package?)`);
  const rewritten = source.replace(
    IMPORT,
    `import{existsSync as a,mkdtempSync as s,promises as c,readFileSync as l}from"fs";import{globSync as o}from${JSON.stringify(SHIM)};`,
  );
  return { ...loaded, source: rewritten };
}
