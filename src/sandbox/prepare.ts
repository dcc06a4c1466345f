/**
 * A script as a REPL turn runs it: top-level `await` works, and the value of its last expression
 * (or of an explicit `return`) is its result. Its declarations are the script's own (each run is
 * a fresh realm: nothing outlives it). Pure (acorn parses; nothing runs here), so it is tested in
 * Node. The script keeps its line numbers: what is added before it goes on its first line.
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
  const last = program.body.at(-1);
  if (last?.type !== 'ExpressionStatement') return `(async () => { ${code}\n})()\n//# sourceURL=${CODE_FILE}`;
  // The statement, not its expression: a parenthesised one (`({ a: 1 })`) starts at its paren.
  const end = code[last.end - 1] === ';' ? last.end - 1 : last.end;
  const body = `${code.slice(0, last.start)}return (${code.slice(last.start, end)})${code.slice(end)}`;
  return `(async () => { ${body}\n})()\n//# sourceURL=${CODE_FILE}`;
}
