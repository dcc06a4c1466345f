import { afterEach, describe, expect, it, vi } from 'vitest';
import { loadModuleGraph, ModuleGraphError, resolveSpecifier } from './module-graph';
import { scanImports } from './scan-imports';

/** A server of module texts; counts what it was asked for. */
function server(files: Record<string, string>) {
  const asked: string[] = [];
  const fetchText = async (url: string) => {
    asked.push(url);
    const text = files[url];
    if (text === undefined) throw new ModuleGraphError(`Could not load the tools module ${url}: HTTP 404.`);
    return text;
  };
  return { asked, fetchText };
}

/** The graph's modules joined as the frame joins them, with `<n>` for module n's blob URL. */
function joined(graph: Awaited<ReturnType<typeof loadModuleGraph>>): string[] {
  return graph.modules.map((m) =>
    m.parts.map((p) => (typeof p === 'number' ? `<${p}>` : typeof p === 'string' ? p : `late[${p.late}]`)).join(''),
  );
}

const O = 'https://app.example';

describe('loadModuleGraph', () => {
  it('orders modules after what they import statically, each once, with imports pointing at them', async () => {
    const { asked, fetchText } = server({
      [`${O}/t.js`]: `import { a } from './a.js'; import '/b.js'; const c = import(\`./c.js\`); // import './no.js'`,
      [`${O}/a.js`]: `export * from "./d.js"; export const a = 1;`,
      [`${O}/b.js`]: `import { d } from "https://app.example/d.js"; const s = "import('./no.js')";`,
      [`${O}/c.js`]: `export const c = 3;`,
      [`${O}/d.js`]: `export const d = 4;`,
    });
    const graph = await loadModuleGraph(`${O}/t.js`, scanImports, fetchText);
    expect(graph.modules.map((m) => m.url.slice(O.length))).toEqual(['/d.js', '/a.js', '/b.js', '/t.js', '/c.js']);
    expect(graph.entry).toBe(3);
    expect(joined(graph)).toEqual([
      'export const d = 4;',
      'export * from "<0>"; export const a = 1;',
      `import { d } from "<0>"; const s = "import('./no.js')";`,
      `import { a } from '<1>'; import '<2>'; const c = import(late[4]); // import './no.js'`,
      'export const c = 3;',
    ]);
    expect([...asked].sort()).toEqual(['/a.js', '/b.js', '/c.js', '/d.js', '/t.js'].map((p) => O + p));
  });

  it('leaves a module with no imports whole', async () => {
    const { fetchText } = server({ [`${O}/one.js`]: 'const x = a / b / 2; self.x = /import "y"/;' });
    const graph = await loadModuleGraph(`${O}/one.js`, scanImports, fetchText);
    expect(graph).toEqual({
      modules: [{ url: `${O}/one.js`, parts: ['const x = a / b / 2; self.x = /import "y"/;'] }],
      entry: 0,
    });
  });

  it('closes a cycle through a dynamic import, as bundlers write them (a chunk importing its entry back)', async () => {
    const { fetchText } = server({
      [`${O}/w.js`]: `import './shared.js'; export const h = 1; const s = import(\`./store.js\`);`,
      [`${O}/shared.js`]: `export const x = import("./store.js");`,
      [`${O}/store.js`]: `import { h } from './w.js'; import './shared.js';`,
    });
    const graph = await loadModuleGraph(`${O}/w.js`, scanImports, fetchText);
    expect(graph.modules.map((m) => m.url.slice(O.length))).toEqual(['/shared.js', '/w.js', '/store.js']);
    expect(graph.entry).toBe(1);
    expect(joined(graph)).toEqual([
      'export const x = import(late[2]);',
      `import '<0>'; export const h = 1; const s = import(late[2]);`,
      `import { h } from '<1>'; import '<0>';`,
    ]);
  });

  it('names a static circular import and says what to do', async () => {
    const { fetchText } = server({
      [`${O}/t.js`]: `import './a.js';`,
      [`${O}/a.js`]: `import './b.js';`,
      [`${O}/b.js`]: `import './a.js';`,
    });
    await expect(loadModuleGraph(`${O}/t.js`, scanImports, fetchText)).rejects.toThrow(
      'The tools module has a circular import (/a.js -> /b.js -> /a.js)',
    );
  });

  it('refuses a bare module name, which only a bundler can resolve', async () => {
    const { fetchText } = server({ [`${O}/t.js`]: `import { z } from 'zod';` });
    const error = await loadModuleGraph(`${O}/t.js`, scanImports, fetchText).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ModuleGraphError);
    expect((error as Error).message).toMatch(
      /^Could not load the tools module https:\/\/app\.example\/t\.js: it imports 'zod', a bare module name .*\?worker&url/,
    );
  });

  it('fails with the module that could not be loaded', async () => {
    const { fetchText } = server({ [`${O}/t.js`]: `import './gone.js';` });
    await expect(loadModuleGraph(`${O}/t.js`, scanImports, fetchText)).rejects.toThrow(
      `Could not load the tools module ${O}/gone.js: HTTP 404.`,
    );
  });
});

describe('resolveSpecifier', () => {
  it('reads relative, root-relative and absolute specifiers against the importing module', () => {
    expect(resolveSpecifier('./x.js', `${O}/a/b.js`)).toBe(`${O}/a/x.js`);
    expect(resolveSpecifier('../x.js', `${O}/a/b.js`)).toBe(`${O}/x.js`);
    expect(resolveSpecifier('/node_modules/.vite/deps/zod.js?v=1', `${O}/a/b.js`)).toBe(
      `${O}/node_modules/.vite/deps/zod.js?v=1`,
    );
    expect(resolveSpecifier('https://cdn.example/m.js', `${O}/a/b.js`)).toBe('https://cdn.example/m.js');
    expect(() => resolveSpecifier('lodash/get', `${O}/a/b.js`)).toThrow(ModuleGraphError);
  });
});

describe('loadModuleGraph: what the scanner cannot read', () => {
  it('names the module that is not JavaScript', async () => {
    const { fetchText } = server({
      [`${O}/t.js`]: `import './page.js';`,
      [`${O}/page.js`]: '<!doctype html><p>a/b</p>',
    });
    await expect(loadModuleGraph(`${O}/t.js`, scanImports, fetchText)).rejects.toThrow(
      `Could not load the tools module ${O}/page.js: it is not JavaScript (`,
    );
  });
});

describe('loadModuleGraph: the address of a source, not of its bundle', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  /** What \`vite build\` makes of new URL('./tools.worker.ts', import.meta.url): the source, inlined. */
  const inlined = `data:video/mp2t;base64,${btoa("import { serveTools } from 'moat-sdk/worker';\n".repeat(50))}`;

  /** The lines a page needs, bundler by bundler (src/bundlers/tools-module-error.ts). */
  const expectAdvice = (message: string) => {
    expect(message).toContain("with Vite, import toolsUrl from './tools.worker.ts?worker&url'");
    expect(message).toContain("'framedWorkers() from moat-sdk/pool' in module.parser.javascript.worker");
    expect(message).toContain('with esbuild, the tools module as an entry point of its own');
  };

  it("names each bundler's line, and not the data: URL a build made of the source", async () => {
    // Node's fetch reads data: URLs as a browser's does: answered with the URL's media type.
    const error = await loadModuleGraph(inlined, scanImports).catch((e: Error) => e);
    expect(error).toBeInstanceOf(ModuleGraphError);
    const { message } = error as Error;
    expect(message).toMatch(
      /^Could not load the tools module \(a data: URL of video\/mp2t, 3,\d{3} characters\): it was answered as 'video\/mp2t', not JavaScript\. /,
    );
    expectAdvice(message);
    expect(message).not.toContain('base64');
    expect(message.length).toBeLessThan(1_000);
  });

  it("names each bundler's line for a source that is not there (esbuild given './tools.worker.ts')", async () => {
    vi.stubGlobal('fetch', async () => new Response('Not found', { status: 404 }));
    const error = await loadModuleGraph(`${O}/tools.worker.ts`, scanImports).catch((e: Error) => e);
    expect((error as Error).message).toMatch(
      /^Could not load the tools module https:\/\/app\.example\/tools\.worker\.ts: HTTP 404\. /,
    );
    expectAdvice((error as Error).message);
  });

  it("names each bundler's line for a source copied as it is (webpack's new URL without the worker option)", async () => {
    const { fetchText } = server({ [`${O}/be37f904.js`]: "import { serveTools } from 'moat-sdk/worker';" });
    const error = await loadModuleGraph(`${O}/be37f904.js`, scanImports, fetchText).catch((e: Error) => e);
    expect((error as Error).message).toContain("it imports 'moat-sdk/worker', a bare module name");
    expectAdvice((error as Error).message);
  });
});

describe('scanImports', () => {
  /** What each import found names, and the text it stands on. */
  const scan = (text: string) =>
    scanImports(text).map((at) => [at.specifier, text.slice(at.start, at.end), at.dynamic] as const);

  it('finds static imports, re-exports and dynamic imports of a string or a plain template', () => {
    expect(
      scan(
        `import a from './a.js'; import {b} from"./b.js"; import './c.js'; export * from './d.js'; export { e } from './e.js'; import('./f.js'); import(\`./g.js\`); import( /* c */ \`./$h.js\` , {}); import("./\\u0069.js");`,
      ),
    ).toEqual([
      ['./a.js', './a.js', false],
      ['./b.js', './b.js', false],
      ['./c.js', './c.js', false],
      ['./d.js', './d.js', false],
      ['./e.js', './e.js', false],
      ['./f.js', "'./f.js'", true],
      ['./g.js', '`./g.js`', true],
      ['./$h.js', '`./$h.js`', true],
      ['./i.js', '"./\\u0069.js"', true],
    ]);
  });

  it('leaves alone what names no module to run: import.meta, computed imports, import.source()', () => {
    expect(
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the text is a module's code
      scan('const u = import.meta.url; import(u); import("./" + x); import(`./${x}.js`); import.source("./w.wasm");'),
    ).toEqual([]);
  });

  it('finds nothing in strings, comments, templates and regular expressions', () => {
    const text = [
      `const s = "import './s.js'";`,
      `// import './line.js'`,
      `/* export * from './block.js' */`,
      'const t = `import("./t.js")`;',
      `const r = /import "y"/, q = a / b / 2;`,
      `if (x) /from '.\\/z.js'/.test(s);`,
    ].join('\n');
    expect(scan(text)).toEqual([]);
  });

  it('reads a minified bundle as a bundler writes it', () => {
    const text = `const e=a/2/b;let t=/\`/g;function n(){return import("./chunk-A1.js")}export{n as run};`;
    expect(scan(text)).toEqual([['./chunk-A1.js', '"./chunk-A1.js"', true]]);
  });
});
