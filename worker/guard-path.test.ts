// The guard's run-time code uses no built-in tool code could have replaced (test/guard-path-check.ts
// says what is checked and why). The check is shown to fail on small bad snippets first.
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { checkGuardPath, type Finding } from '../test/guard-path-check';

/**
 * The guard's path: the guard, the realm's locks, the sealed side's end of the channel to the page
 * (which asks the page's network questions and answers its requests), and the built-ins they take.
 */
const GUARD_PATH = [
  'worker/network-guard.ts',
  'worker/realm-locks.ts',
  'src/frame/sealed-end.ts',
  'worker/primordials.ts',
];

/**
 * What the guard path imports at run time from outside itself, and why it is not checked: a new
 * import fails the test below until it is checked (added to GUARD_PATH) or explained here.
 */
const IMPORTS_OUTSIDE: Record<string, string> = {
  '../src/errors/network-denied-error':
    'only builds the error a refused door throws or rejects with: whatever tool code makes of its ' +
    'construction (a replaced Error, a throwing getter), the door is refused all the same',
};

const root = resolve(import.meta.dirname, '..');

/** Run the check on one snippet, placed in worker/ so that './primordials' resolves. */
function check(snippet: string): Finding[] {
  return checkGuardPath(['worker/guard-path-snippet.ts'], { 'worker/guard-path-snippet.ts': snippet });
}
const rules = (findings: Finding[]) => findings.map((f) => `${f.text}: ${f.rule}`);

// Each check builds a TypeScript program: seconds on a loaded machine.
describe('the guard path check', { timeout: 60_000 }, () => {
  it('finds built-ins used at run time, and not at evaluation', () => {
    const findings = check(`
      const atEvaluation = 'data:'.startsWith('data');
      export function later(url: string, list: string[]) {
        const a = url.startsWith('data:');
        const b = Array.from(list);
        const c = new URL(url);
        const d = globalThis;
        Promise.resolve(1).then(() => a);
        return [atEvaluation, a, b, c, d];
      }`);
    expect(rules(findings)).toEqual([
      'url.startsWith: a built-in member tool code could have replaced: take it in primordials.ts',
      'Array.from: a built-in member tool code could have replaced: take it in primordials.ts',
      'Array: a global tool code could have replaced: take it in primordials.ts',
      'URL: a global tool code could have replaced: take it in primordials.ts',
      'globalThis: a global tool code could have replaced: take it in primordials.ts',
      'Promise.resolve(1).then: a built-in member tool code could have replaced: take it in primordials.ts',
      'Promise.resolve: a built-in member tool code could have replaced: take it in primordials.ts',
      'Promise: a global tool code could have replaced: take it in primordials.ts',
    ]);
  });

  it('finds syntax that walks replaceable built-ins, optional properties and element writes', async () => {
    const findings = check(`
      type Asker = { sync?: () => boolean };
      export async function later(list: string[], asker: Asker, p: Promise<number>, x: unknown) {
        for (const item of list) void item;
        const copy = [...list];
        const [first] = list;
        copy[0] = 'x';
        const n = await p;
        return [asker.sync, first, n, x instanceof Object];
      }`);
    expect(findings.map((f) => f.rule)).toEqual([
      'for…of walks the array iterator, which tool code can replace',
      'spread walks the array iterator, which tool code can replace',
      'array destructuring walks the array iterator, which tool code can replace',
      'an element assignment can call a setter on a prototype (setOwn)',
      "await reads a promise's constructor and then, which tool code can replace",
      'an optional property: absent, it is looked up on prototypes tool code can change (ownValue)',
      'instanceof asks Symbol.hasInstance, which tool code can define',
      'a global tool code could have replaced: take it in primordials.ts',
    ]);
  });

  it('accepts primordials, the allow-list, thrown errors and @evaluation functions called at evaluation', () => {
    const findings = check(`
      import { apply, ownValue, setOwn, stringStartsWith } from './primordials';
      type Asker = { sync?: () => boolean };
      /** @evaluation */
      function install(): string[] { return Object.getOwnPropertyNames(globalThis); }
      install();
      export function later(url: string, list: string[], asker: Asker, event: Event, re: RegExp) {
        if (!stringStartsWith(url, 'data:')) throw new TypeError('no');
        setOwn(list, list.length, url);
        re.lastIndex = 0;
        return [ownValue(asker, 'sync'), event.isTrusted, apply(String, undefined, [url])];
      }`);
    // String handed to apply is still a global read at run time: the only finding.
    expect(rules(findings)).toEqual(['String: a global tool code could have replaced: take it in primordials.ts']);
  });

  it('finds an @evaluation function called at run time', () => {
    const findings = check(`
      /** @evaluation */
      function install(): void {}
      export function later() { install(); }`);
    expect(findings.map((f) => f.rule)).toEqual(['an @evaluation function called from run-time code']);
  });
});

describe('the guard path', { timeout: 60_000 }, () => {
  it('uses no built-in tool code could have replaced', () => {
    expect(checkGuardPath(GUARD_PATH)).toEqual([]);
  });

  it('imports at run time only itself and what is explained', () => {
    const outside = new Set<string>();
    for (const file of GUARD_PATH) {
      const source = ts.createSourceFile(file, readFileSync(resolve(root, file), 'utf8'), ts.ScriptTarget.ES2022);
      for (const statement of source.statements) {
        if (!ts.isImportDeclaration(statement) && !ts.isExportDeclaration(statement)) continue;
        const clause = ts.isImportDeclaration(statement) ? statement.importClause : undefined;
        if (clause?.isTypeOnly || (ts.isExportDeclaration(statement) && statement.isTypeOnly)) continue;
        const named = clause?.namedBindings;
        if (named && ts.isNamedImports(named) && !clause.name && named.elements.every((e) => e.isTypeOnly)) continue;
        const from = (statement.moduleSpecifier as ts.StringLiteral | undefined)?.text;
        if (!from) continue;
        const inPath = GUARD_PATH.some(
          (f) => resolve(root, dirname(file), from) === resolve(root, f.replace(/\.ts$/, '')),
        );
        if (!inPath) outside.add(from);
      }
    }
    expect([...outside].sort()).toEqual(Object.keys(IMPORTS_OUTSIDE).sort());
  });
});
