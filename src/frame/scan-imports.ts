/**
 * Where a module's text names other modules: static imports, re-exports (`from '…'`, `import '…'`)
 * and dynamic `import()` of a literal (whose range then takes in its quotes: it is replaced by an
 * expression). Read with es-module-lexer, which tells strings, comments, templates and regular
 * expressions apart: a quote inside any of them is not an import. Its plain JavaScript build
 * (asm.js, no WebAssembly): a page whose policy forbids compiling WebAssembly can seal too.
 */
import { parse } from 'es-module-lexer/js';
import type { ScanImports } from './module-graph';

/** es-module-lexer's `ImportType.Dynamic` (its types declare the enum; its asm.js build exports none). */
const DYNAMIC = 2;

export const scanImports: ScanImports = (text) => {
  const found: ReturnType<ScanImports> = [];
  for (const at of parse(text)[0]) {
    // A static import's specifier, without its quotes. A dynamic one's, with them: the lexer
    // reads its value (`n`) only when it is a lone string or a template with no `${}`, and its
    // range is then that literal. `import.meta`, `import.source()` and `import.defer()` are not
    // imports of a module to run.
    if (at.n === undefined) continue;
    if (at.d === -1) found.push({ start: at.s, end: at.e, specifier: at.n, dynamic: false });
    else if (at.t === DYNAMIC) found.push({ start: at.s, end: at.e, specifier: at.n, dynamic: true });
  }
  return found;
};
