/**
 * A script as a REPL runs it: its top-level declarations outlive the run (they become globals
 * of the sandbox), top-level `await` works, and the value of its last expression (or of an
 * explicit `return`) is its result. Pure (acorn parses; nothing runs here), so it is tested in
 * Node. The script keeps its line numbers: everything added goes on its first line.
 */
import { parse } from 'acorn';
import { CodeError } from '../errors/code-error';
import { CODE_FILE } from './code-file';

type Node = { type: string; start: number; end: number; [key: string]: unknown };

/**
 * Rewrite `code` to run through indirect `eval` in the sandbox; the result is a promise of the
 * script's value. Throws `CodeError` (a SyntaxError, with its line) when it does not parse.
 */
export function prepareScript(code: string): string {
  let program: { body: Node[] };
  try {
    program = parse(code, {
      ecmaVersion: 'latest',
      sourceType: 'script',
      allowAwaitOutsideFunction: true,
      allowReturnOutsideFunction: true,
      locations: true,
    }) as unknown as { body: Node[] };
  } catch (error) {
    const { message, loc } = error as { message: string; loc?: { line: number; column: number } };
    throw new CodeError({
      errorName: 'SyntaxError',
      detail: message.replace(/ \(\d+:\d+\)$/, ''),
      line: loc?.line,
      column: loc === undefined ? undefined : loc.column + 1,
    });
  }
  const edits: { at: number; end: number; text: string }[] = [];
  const globals = new Set<string>();
  const functions: string[] = [];
  for (const statement of program.body) {
    if (statement.type === 'VariableDeclaration') {
      // `const a = 1, { b } = o;` → `(a = 1, { b } = o);` with `var a, b;` declared globally.
      const declarations = statement.declarations as Node[];
      for (const d of declarations) for (const name of namesIn(d.id as Node)) globals.add(name);
      const first = declarations[0] as Node;
      const last = declarations.at(-1) as Node;
      edits.push({ at: statement.start, end: first.start, text: '(' });
      for (const d of declarations) if (d.init === null) edits.push({ at: d.end, end: d.end, text: ' = undefined' });
      edits.push({ at: last.end, end: last.end, text: ')' });
    } else if (statement.type === 'FunctionDeclaration') {
      const name = (statement.id as Node & { name: string }).name;
      globals.add(name);
      functions.push(name);
    } else if (statement.type === 'ClassDeclaration') {
      const name = (statement.id as Node & { name: string }).name;
      globals.add(name);
      edits.push({ at: statement.start, end: statement.start, text: `${name} = ` });
      edits.push({ at: statement.end, end: statement.end, text: ';' });
    }
  }
  const last = program.body.at(-1);
  if (last?.type === 'ExpressionStatement') {
    // The statement, not its expression: a parenthesised one (`({ a: 1 })`) starts at its paren.
    const end = code[last.end - 1] === ';' ? last.end - 1 : last.end;
    edits.push({ at: last.start, end: last.start, text: 'return (' });
    edits.push({ at: end, end, text: ')' });
  }
  let body = '';
  let at = 0;
  for (const edit of edits.sort((a, b) => a.at - b.at || a.end - b.end)) {
    body += code.slice(at, edit.at) + edit.text;
    at = edit.end;
  }
  body += code.slice(at);
  const declared = globals.size > 0 ? `var ${[...globals].join(', ')}; ` : '';
  const hoisted = functions.map((f) => `globalThis.${f} = ${f}; `).join('');
  return `${declared}(async () => { ${hoisted}${body}\n})()\n//# sourceURL=${CODE_FILE}`;
}

/** The names a binding pattern declares: `a`, `{ b, c: d }`, `[e, ...f]`, `{ g = 1 }`. */
function namesIn(pattern: Node): string[] {
  switch (pattern.type) {
    case 'Identifier':
      return [pattern.name as string];
    case 'ObjectPattern':
      return (pattern.properties as Node[]).flatMap((p) =>
        p.type === 'RestElement' ? namesIn(p.argument as Node) : namesIn(p.value as Node),
      );
    case 'ArrayPattern':
      return (pattern.elements as (Node | null)[]).flatMap((e) => (e ? namesIn(e) : []));
    case 'RestElement':
      return namesIn(pattern.argument as Node);
    case 'AssignmentPattern':
      return namesIn(pattern.left as Node);
    default:
      return [];
  }
}
