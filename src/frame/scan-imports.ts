/**
 * Where a module's text names other modules: static imports, re-exports (`from '…'`, `import '…'`)
 * and dynamic `import()` of a literal. Read with acorn's tokenizer, which tells strings, comments,
 * templates and regular expressions apart: a quote inside any of them is not an import.
 */
import { type Token, tokenizer } from 'acorn';
import type { ScanImports } from './module-graph';

export const scanImports: ScanImports = (text) => {
  const found: { start: number; end: number; specifier: string }[] = [];
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
    if (next?.type.label === 'string') {
      found.push({ start: next.start + 1, end: next.end - 1, specifier: String(next.value) });
    } else if (isImport && next?.type.label === '`') {
      const body = tokens[i + 3];
      const close = tokens[i + 4];
      if (tokens[i + 1]?.type.label === '(' && body?.type.label === 'template' && close?.type.label === '`') {
        found.push({ start: body.start, end: body.end, specifier: String(body.value) });
      }
    }
  }
  return found;
};
