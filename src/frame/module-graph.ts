/**
 * A tools module and everything it imports, read by the page from its own origin, so that a
 * sealed frame (an opaque origin, which could fetch nothing from the app without CORS) can run
 * it: each of the frame's workers turns each module into a blob URL, dependencies first, and
 * imports the entry from there. A built worker is one file or a few chunks; under a dev server it
 * is a few dozen modules, all same-origin paths.
 */

import { readableUrl, toolsModuleError } from './tools-module-error';

/**
 * One module: its text cut where its imports name another module. A number stands for that
 * module's URL (a static import); `{ late: n }` for an expression giving module n's URL when it
 * runs (a dynamic `import()`, whose module may come later: bundlers often import the entry back
 * from a chunk it loads on demand, a cycle that blob URLs, fixed once made, could not close).
 */
export interface GraphModule {
  readonly url: string;
  readonly parts: readonly (string | number | { readonly late: number })[];
}

/**
 * Modules in an order where each comes after everything it imports statically; the entry is
 * `entry`.
 */
export interface ModuleGraph {
  readonly modules: readonly GraphModule[];
  readonly entry: number;
}

/** The graph could not be read: the message says what to change. */
export class ModuleGraphError extends Error {
  override readonly name = 'ModuleGraphError';
}

type FetchText = (url: string) => Promise<string>;

/**
 * Specifiers in `text` that name a module, with where they stand: a static one without its
 * quotes, a dynamic one with them.
 */
export type ScanImports = (text: string) => { start: number; end: number; specifier: string; dynamic: boolean }[];

/**
 * Reads the module at `entry` and all it imports (static imports and re-exports, and dynamic
 * `import()` of a literal), from the page's own origin or one that answers it with CORS.
 */
export async function loadModuleGraph(
  entry: string,
  scan: ScanImports,
  fetchText: FetchText = defaultFetchText,
): Promise<ModuleGraph> {
  const modules: GraphModule[] = [];
  const index = new Map<string, number>();
  const texts = new Map<string, Promise<string>>();
  const read = (url: string) => {
    let text = texts.get(url);
    if (!text) {
      text = fetchText(url);
      texts.set(url, text);
      text.catch(() => {});
    }
    return text;
  };
  /** Depth first; `path` holds the modules being read, to name a cycle. */
  const visit = async (url: string, path: string[]): Promise<number> => {
    const done = index.get(url);
    if (done !== undefined) return done;
    if (path.includes(url)) {
      const cycle = [...path.slice(path.indexOf(url)), url].map(shortName).join(' -> ');
      throw new ModuleGraphError(
        `The tools module has a circular import (${cycle}); a sealed worker runs modules from blobs, which cannot import each other in a circle. Bundle the tools module into one file, or break the cycle.`,
      );
    }
    const text = await read(url);
    let scanned: ReturnType<ScanImports>;
    try {
      scanned = scan(text);
    } catch (error) {
      throw new ModuleGraphError(toolsModuleError(url, `it is not JavaScript (${(error as Error).message})`));
    }
    const found = scanned.map((at) => ({ ...at, url: resolveSpecifier(at.specifier, url) }));
    // Start every fetch at once; place them in order.
    for (const dep of found) void read(dep.url);
    const parts: (string | number | { late: number })[] = [];
    let from = 0;
    for (const dep of found) {
      parts.push(text.slice(from, dep.start));
      if (dep.dynamic) {
        const part = { late: -1 };
        late.push({ part, url: dep.url });
        parts.push(part);
      } else {
        parts.push(await visit(dep.url, [...path, url]));
      }
      from = dep.end;
    }
    parts.push(text.slice(from));
    modules.push({ url, parts });
    index.set(url, modules.length - 1);
    return modules.length - 1;
  };
  /** Dynamic imports: read once the static graph is placed, so they may import any of it back. */
  const late: { part: { late: number }; url: string }[] = [];
  const at = await visit(entry, []);
  for (let next = late.shift(); next; next = late.shift()) next.part.late = await visit(next.url, []);
  return { modules, entry: at };
}

/** A specifier as a module URL: relative, root-relative or absolute; a bare one is an error. */
export function resolveSpecifier(specifier: string, base: string): string {
  if (/^(\.{0,2}\/|[a-z][a-z\d+.-]*:)/i.test(specifier)) return new URL(specifier, base).href;
  throw new ModuleGraphError(
    toolsModuleError(
      base,
      `it imports '${specifier}', a bare module name that only a bundler or an import map can resolve`,
    ),
  );
}

async function defaultFetchText(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { credentials: 'same-origin' });
  } catch (error) {
    throw new ModuleGraphError(
      `Could not fetch the tools module ${readableUrl(url)} (${String(error)}). The page reads it to hand it to the sealed frame: serve it from the page's origin, or from one that answers the page with CORS.`,
    );
  }
  if (!response.ok) throw new ModuleGraphError(toolsModuleError(url, `HTTP ${response.status}`));
  // As for any module script: a server that answers an unknown path with its page is not one.
  const type = response.headers.get('content-type') ?? '';
  if (!/javascript|ecmascript/i.test(type)) {
    throw new ModuleGraphError(
      toolsModuleError(url, `it was answered as '${type || 'no content type'}', not JavaScript`),
    );
  }
  return response.text();
}

function shortName(url: string): string {
  try {
    const u = new URL(url);
    return u.pathname + u.search;
  } catch {
    return url;
  }
}
