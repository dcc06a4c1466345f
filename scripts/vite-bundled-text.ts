/**
 * `import text from './x.ts?bundled'`: the module at that path, with everything it imports, as
 * one self-contained ES module, given as a string. For code that must reach a sealed frame as
 * text (the MCP client and its SDK): a string is the one thing every bundler and dev server passes
 * through unchanged, so the built package needs nothing of its users' tools. The same plugin
 * serves the dev server, Vitest, the demo's build and the package's build; each file is bundled
 * once, and again after any file it took in changes (dev server, watch mode).
 *
 * `?bundled-script` gives the same as a classic script (an IIFE: its names stay its own), for
 * code a worker must evaluate synchronously, before anything else (Moat's sealed runtime).
 */
import type { Plugin } from 'vite';

const QUERY = /\?bundled(-script)?$/;

export function bundledText(): Plugin {
  const made = new Map<string, Promise<{ code: string; files: string[] }>>();
  return {
    name: 'moat-bundled-text',
    enforce: 'pre',
    load(id) {
      const query = QUERY.exec(id);
      if (!query) return undefined;
      const file = id.slice(0, query.index);
      const format = query[1] ? 'iife' : 'es';
      const key = `${format}:${file}`;
      let text = made.get(key);
      if (!text) {
        text = bundle(file, format);
        made.set(key, text);
        text.catch(() => made.delete(key));
      }
      return text.then(({ code, files }) => {
        for (const watched of files) this.addWatchFile(watched);
        return `export default ${JSON.stringify(code)};`;
      });
    },
    watchChange(changed) {
      for (const [key, text] of made) {
        void text.then(
          ({ files }) => files.includes(changed) && made.delete(key),
          () => {},
        );
      }
    },
  };
}

async function bundle(file: string, format: 'es' | 'iife'): Promise<{ code: string; files: string[] }> {
  const { build } = await import('vite');
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      lib: { entry: file, formats: [format], fileName: 'bundle', name: 'moatBundle' },
      rolldownOptions: { output: { codeSplitting: false } },
    },
  });
  const results = Array.isArray(output) ? output : [output];
  const chunks = results
    .flatMap((result) => ('output' in result ? result.output : []))
    .filter((o) => o.type === 'chunk');
  if (chunks.length !== 1) throw new Error(`Expected ${file} to bundle into one chunk, got ${chunks.length}`);
  const chunk = chunks[0] as { code: string; moduleIds: string[] };
  // Our own files only: the packages under node_modules change with an install, which restarts.
  return {
    code: chunk.code,
    files: chunk.moduleIds.filter((id) => !id.includes('node_modules') && !id.startsWith('\0')),
  };
}
