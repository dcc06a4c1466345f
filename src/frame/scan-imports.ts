/**
 * Where a module's text names other modules: static imports, re-exports (`from '…'`, `import '…'`)
 * and dynamic `import()` of a literal (whose range then takes in its quotes: it is replaced by an
 * expression). Read with es-module-lexer, which tells strings, comments, templates and regular
 * expressions apart: a quote inside any of them is not an import. Its plain JavaScript build
 * (asm.js, no WebAssembly): a page whose policy forbids compiling WebAssembly can seal too.
 */
import { parse } from 'es-module-lexer/js';
import type { ScanImports } from './module-graph';

/** A string literal (its value is the lexer's `n`), or a template literal with no `${}` in it. */
const STRING = /^(["']).*\1$/s;
const PLAIN_TEMPLATE = /^`[^`$\\]*`$/;

export const scanImports: ScanImports = (text) => {
  const found: ReturnType<ScanImports> = [];
  for (const at of parse(text)[0]) {
    // A static import's specifier, without its quotes.
    if (at.d === -1) {
      if (at.n !== undefined) found.push({ start: at.s, end: at.e, specifier: at.n, dynamic: false });
      continue;
    }
    if (at.d < 0) continue; // import.meta
    // A dynamic import's argument, quotes and all (an expression of any other kind is left be).
    const argument = text.slice(at.s, at.e);
    if (at.n !== undefined && STRING.test(argument))
      found.push({ start: at.s, end: at.e, specifier: at.n, dynamic: true });
    else if (PLAIN_TEMPLATE.test(argument))
      found.push({ start: at.s, end: at.e, specifier: argument.slice(1, -1), dynamic: true });
  }
  return found;
};
