/**
 * Where a module's text names other modules: static imports, re-exports (`from '…'`, `import '…'`)
 * and dynamic `import()` of a literal (whose range then takes in its quotes: it is replaced by an
 * expression). Read with acorn's tokenizer, which tells strings, comments,
 * templates and regular expressions apart: a quote inside any of them is not an import.
 */
import { type Token, tokenizer } from 'acorn';
import type { ScanImports } from './module-graph';

export const scanImports: ScanImports = (text) => {
  const found: ReturnType<ScanImports> = [];
  // acorn's Token carries its value, though its types do not say so.
  const tokens = [...tokenizer(text, { ecmaVersion: 'latest', sourceType: 'module' })] as (Token & {
    value?: unknown;
  })[];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (!token) continue;
    const isImport = token.type.label === 'import';
    const isFrom = token.type.label === 'name' && token.value === 'from';
    if (!isImport && !isFrom) continue;
    let next = tokens[i + 1];
    // import('…') or import(`…`): a dynamic import of a literal.
    if (isImport && next?.type.label === '(') next = tokens[i + 2];
    const dynamic = isImport && tokens[i + 1]?.type.label === '(';
    if (next?.type.label === 'string') {
      // A static import's specifier without its quotes; a dynamic one's with them (an expression).
      const quotes = dynamic ? 0 : 1;
      found.push({ start: next.start + quotes, end: next.end - quotes, specifier: String(next.value), dynamic });
    } else if (dynamic && next?.type.label === '`') {
      const body = tokens[i + 3];
      const close = tokens[i + 4];
      if (body?.type.label === 'template' && close?.type.label === '`') {
        found.push({ start: next.start, end: close.end, specifier: String(body.value), dynamic });
      }
    }
  }
  return found;
};
