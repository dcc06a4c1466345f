/**
 * `import text from './x.ts?bundled'`: the module at that path, with everything it imports, as
 * one self-contained ES module, given as a string. For code that must reach a sealed frame as
 * text (the MCP client and its SDK): a string is the one thing every bundler and dev server passes
 * through unchanged, so the built package needs nothing of its users' tools. The same plugin
 * serves the dev server, Vitest, the demo's build and the package's build; each file is bundled
 * once, and again after any file it took in changes (dev server, watch mode).
 */
import type { Plugin } from 'vite';

const QUERY = '?bundled';

export function bundledText(): Plugin {
  const made = new Map<string, Promise<{ code: string; files: string[] }>>();
  return {
    name: 'moat-bundled-text',
    enforce: 'pre',
    load(id) {
      if (!id.endsWith(QUERY)) return undefined;
      const file = id.slice(0, -QUERY.length);
      let text = made.get(file);
      if (!text) {
        text = bundle(file);
        made.set(file, text);
        text.catch(() => made.delete(file));
      }
      return text.then(({ code, files }) => {
        for (const watched of files) this.addWatchFile(watched);
        return `export default ${JSON.stringify(code)};`;
      });
    },
    watchChange(changed) {
      for (const [file, text] of made) {
        void text.then(
          ({ files }) => files.includes(changed) && made.delete(file),
          () => {},
        );
      }
    },
  };
}

async function bundle(file: string): Promise<{ code: string; files: string[] }> {
  const { build } = await import('vite');
  const output = await build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      target: 'es2022',
      minify: true,
      lib: { entry: file, formats: ['es'], fileName: 'bundle' },
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
