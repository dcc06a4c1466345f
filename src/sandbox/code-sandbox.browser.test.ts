import { afterEach, describe, expect, it } from 'vitest';
import { CodeError } from '../errors/code-error';
import { type CodeSandbox, createCodeSandbox } from './code-sandbox';

let sandbox: CodeSandbox | undefined;
afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
});

describe('the code sandbox as a REPL', () => {
  it('gives the last expression and console output; each run starts afresh', async () => {
    sandbox = createCodeSandbox();
    const r = await sandbox.run('const xs = [3, 1, 2]; xs.sort(); console.log(xs); xs.length');
    expect(r.value).toBe(3);
    expect(r.logs).toEqual([{ level: 'log', text: '[ 1, 2, 3 ]' }]);
    expect(
      (
        await sandbox.run(
          'function twice(n) { return 2 * n }\nclass P { v = 7 }\nlet { a, b: [c] } = { a: 1, b: [2] }\ntwice(a + c) + new P().v',
        )
      ).value,
    ).toBe(13);
    // The first run's declarations are not there (runs.browser.test.ts tries harder).
    await expect(sandbox.run('xs')).rejects.toMatchObject({
      name: 'CodeError',
      message: 'ReferenceError: xs is not defined (line 1)',
    });
    expect((await sandbox.run('const xs = "again"; xs')).value).toBe('again');
  });

  it("says how long a run took: at least the script's own time, at most what the caller waited", async () => {
    sandbox = createCodeSandbox();
    await sandbox.run('1'); // started
    const before = performance.now();
    // A script that takes 30 ms by its own clock (the subject: a run of known length).
    const { value, durationMs } = await sandbox.run(
      'const t0 = performance.now(); while (performance.now() - t0 < 30) {}; "done"',
    );
    const waited = performance.now() - before;
    expect(value).toBe('done');
    expect(durationMs).toBeGreaterThanOrEqual(29); // the worker's clock is coarser than the page's
    expect(durationMs).toBeLessThanOrEqual(waited);
  });

  it('awaits at the top level, returns explicitly, and describes what JSON cannot hold', async () => {
    sandbox = createCodeSandbox();
    // The subject: top-level await of a promise that a timer of the script's resolves.
    expect((await sandbox.run('const v = await new Promise((r) => setTimeout(() => r(42), 10));\nv + 1')).value).toBe(
      43,
    );
    expect((await sandbox.run('if (true) return "early"; "late"')).value).toBe('early');
    expect(
      (
        await sandbox.run(
          '({ n: 10n, f: function named() {}, nan: NaN, d: new Date(0), m: new Map([["k", 1]]), s: new Set([1]), u: undefined })',
        )
      ).value,
    ).toEqual({ n: '10n', f: '[Function: named]', nan: 'NaN', d: '1970-01-01T00:00:00.000Z', m: [['k', 1]], s: [1] });
    expect((await sandbox.run('const o = { a: 1 }; o.self = o; o')).value).toEqual({ a: 1, self: '[Circular]' });
  });

  it('reports errors with the line of the script they came from', async () => {
    sandbox = createCodeSandbox();
    const thrown = await sandbox.run('const a = 1;\nconst b = 2;\nnull.x').catch((e: unknown) => e);
    expect(thrown).toBeInstanceOf(CodeError);
    expect(thrown).toMatchObject({ errorName: 'TypeError', line: 3 });
    expect(String((thrown as Error).message)).toMatch(
      /^TypeError: Cannot read properties of null \(reading 'x'\) \(line 3\)$/,
    );
    await expect(sandbox.run('let x = ;')).rejects.toMatchObject({ errorName: 'SyntaxError', line: 1, column: 9 });
    await expect(sandbox.run('throw "a string"')).rejects.toThrow(/Uncaught 'a string'/);
    // The sandbox survives its scripts' errors.
    expect((await sandbox.run('const a = 1, b = 2; a + b')).value).toBe(3);
  });
});
