import { describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error';
import { prepareScript } from './prepare';

/** Run a prepared script the way the sandbox does: indirect eval (in a realm of its own there). */
async function evaluate(code: string): Promise<unknown> {
  // biome-ignore lint/security/noGlobalEval: the sandbox evaluates prepared scripts so; this checks what they do
  const evaluateGlobally = eval;
  return evaluateGlobally(prepareScript(code));
}

describe('prepareScript: a script as a REPL turn runs it', () => {
  it('returns the last expression, parenthesised or not, and keeps an explicit return', async () => {
    expect(await evaluate('1 + 1')).toBe(2);
    expect(await evaluate('({ a: 1 });')).toEqual({ a: 1 });
    expect(await evaluate('const x = 2\nx * 21 // the answer')).toBe(42);
    expect(await evaluate('if (true) return "early"; "late"')).toBe('early');
    expect(await evaluate('const y = 1;')).toBeUndefined();
    expect(await evaluate('await Promise.resolve(5)')).toBe(5);
    expect(await evaluate('twice(4)\nfunction twice(n) { return 2 * n }')).toBeUndefined();
    expect(await evaluate('function twice(n) { return 2 * n }\ntwice(4)')).toBe(8);
  });

  it("keeps a script's declarations its own: none becomes a global", async () => {
    expect(
      await evaluate('const { p, q: [r] } = { p: 1, q: [2] }; var s = 3; function f() { return p + r + s } f()'),
    ).toBe(6);
    expect(await evaluate('[typeof p, typeof r, typeof s, typeof f]')).toEqual([
      'undefined',
      'undefined',
      'undefined',
      'undefined',
    ]);
    // Declared again in a later script: no "already declared" error.
    expect(await evaluate('const p = 10; p')).toBe(10);
  });

  it('keeps line numbers: everything added goes on the first line', () => {
    const code = 'const a = 1;\nconst b = 2;\nfoo(a, b)';
    expect(prepareScript(code).split('\n').slice(1, 3)).toEqual(['const b = 2;', 'return (foo(a, b))']);
  });

  it('refuses what does not parse with a CodeError naming the line and column', () => {
    expect(() => prepareScript('let ok = 1;\nlet x = ;')).toThrow(CodeError);
    expect(() => prepareScript('let ok = 1;\nlet x = ;')).toThrow('SyntaxError: Unexpected token (line 2)');
    expect(() => prepareScript('import fs from "fs"')).toThrow(/SyntaxError: 'import' and 'export' may appear only/);
  });
});
