/**
 * A check of the network guard's code (Node, TypeScript compiler API): code on the guard's path
 * that runs after `moat-sdk/worker` was evaluated must not use a built-in that tool code could have
 * replaced by then. Tool code shares the worker's realm: it may replace `String.prototype.startsWith`,
 * `Promise.prototype.then`, `Array.prototype[Symbol.iterator]`, `URL`, `Object.prototype`'s
 * getters and setters… The guard's run-time code uses only what `worker/primordials.ts` took at
 * evaluation.
 *
 * Evaluation-time code (a module's top level, and the body of a function declaration tagged
 * `@evaluation`) runs before any tool code and may use anything; a function tagged `@evaluation`
 * may be called only from evaluation-time code. Everything else (any other function body, class
 * members, callbacks) is run-time code, where these are findings:
 * - a global the TypeScript libraries declare (`URL`, `Promise`, `Array`, `globalThis`, `self`…);
 * - a member the TypeScript libraries declare (`.then`, `.startsWith`, `.call`, `Array.from`…);
 * - reading or writing a property our own types declare optional (absent, it is looked up on the
 *   prototypes, where tool code may have put a getter or a setter): read it with `ownValue`;
 * - assigning to an element (`a[i] = v`: an absent index calls a setter on `Array.prototype`):
 *   use `setOwn`;
 * - syntax that calls replaceable built-ins: `for…of`, spread, array destructuring (the array
 *   iterator), `await` (a promise's `constructor` and `then`), `instanceof` (`Symbol.hasInstance`).
 *
 * Not seen: reads of an element that may be absent (`a[i]` past the end), and what a callee in
 * another module does (the guard path's imports are listed in the test, each with why).
 */
import { dirname, resolve } from 'node:path';
import ts from 'typescript';

export type Finding = { file: string; line: number; rule: string; text: string };

/** What run-time code may use though the libraries declare it; each with why it is safe. */
export const SAFE_MEMBERS: Record<string, string> = {
  length:
    'an own data property of every array and string (a rest parameter, a list the guard built): ' +
    'reading it consults no prototype',
  isTrusted:
    'an unforgeable own attribute of every Event ([LegacyUnforgeable], non-configurable): it cannot be redefined',
  lastIndex: 'an own data property of every RegExp (the guard resets its own patterns)',
};
export const SAFE_GLOBALS: Record<string, string> = {
  undefined: 'a non-writable, non-configurable property of the global object',
  NaN: 'a non-writable, non-configurable property of the global object',
  Infinity: 'a non-writable, non-configurable property of the global object',
};

const root = resolve(import.meta.dirname, '..');

function compilerOptions(): ts.CompilerOptions {
  const configPath = resolve(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, dirname(configPath));
  return { ...parsed.options, noEmit: true };
}

/**
 * Check `files` (paths from the repository's root). `virtual` adds files that exist only in
 * memory (paths from the root too), for testing the check itself.
 */
export function checkGuardPath(files: string[], virtual: Record<string, string> = {}): Finding[] {
  const options = compilerOptions();
  const host = ts.createCompilerHost(options, true);
  const memory = new Map(Object.entries(virtual).map(([path, text]) => [resolve(root, path), text]));
  const { getSourceFile, fileExists, readFile } = host;
  host.fileExists = (name) => memory.has(resolve(name)) || fileExists.call(host, name);
  host.readFile = (name) => memory.get(resolve(name)) ?? readFile.call(host, name);
  host.getSourceFile = (name, language, ...rest) => {
    const text = memory.get(resolve(name));
    return text !== undefined
      ? ts.createSourceFile(name, text, language, true)
      : getSourceFile.call(host, name, language, ...rest);
  };
  const roots = files.map((f) => resolve(root, f));
  const program = ts.createProgram(roots, options, host);
  const checker = program.getTypeChecker();
  const findings: Finding[] = [];

  for (const path of roots) {
    const source = program.getSourceFile(path);
    if (!source) throw new Error(`The guard path check cannot read ${path}`);
    const report = (node: ts.Node, rule: string) => {
      const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
      findings.push({ file: path.slice(root.length + 1), line: line + 1, rule, text: node.getText(source) });
    };
    const visit = (node: ts.Node) => {
      if (isTypeOnly(node)) return;
      if (atRunTime(node)) checkRunTime(node, checker, report);
      if (ts.isCallExpression(node)) {
        const callee = resolved(checker, checker.getSymbolAtLocation(node.expression));
        const declaration = callee?.valueDeclaration;
        if (declaration && ts.isFunctionDeclaration(declaration) && isEvaluation(declaration) && atRunTime(node))
          report(node, 'an @evaluation function called from run-time code');
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return findings;
}

function isTypeOnly(node: ts.Node): boolean {
  return (
    ts.isTypeNode(node) ||
    ts.isTypeAliasDeclaration(node) ||
    ts.isInterfaceDeclaration(node) ||
    (ts.isImportDeclaration(node) && node.importClause?.isTypeOnly === true)
  );
}

function isEvaluation(fn: ts.FunctionDeclaration): boolean {
  return ts.getJSDocTags(fn).some((tag) => tag.tagName.text === 'evaluation');
}

/** True unless the nearest enclosing function is none (top level) or an `@evaluation` declaration. */
function atRunTime(node: ts.Node): boolean {
  for (let p = node.parent; p; p = p.parent) {
    if (ts.isFunctionDeclaration(p)) return !isEvaluation(p);
    if (ts.isFunctionLike(p) || ts.isPropertyDeclaration(p) || ts.isClassStaticBlockDeclaration(p)) return true;
  }
  return false;
}

function resolved(checker: ts.TypeChecker, symbol: ts.Symbol | undefined): ts.Symbol | undefined {
  return symbol && symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
}

/** Declared only by the libraries (`lib.*.d.ts`, `@types/*`): a built-in. */
function isBuiltIn(symbol: ts.Symbol | undefined): boolean {
  const declarations = symbol?.declarations ?? [];
  return (
    declarations.length > 0 &&
    declarations.every(
      (d) => d.getSourceFile().isDeclarationFile && d.getSourceFile().fileName.includes('node_modules'),
    )
  );
}

/** Declared by our own code as optional (`key?:`). */
function isOptionalOfOurs(symbol: ts.Symbol | undefined): boolean {
  return symbol !== undefined && (symbol.flags & ts.SymbolFlags.Optional) !== 0 && !isBuiltIn(symbol);
}

/** `new X(...)` thrown at once: the throw happens whatever X is or does. */
function isThrownAtOnce(node: ts.Node): boolean {
  return ts.isNewExpression(node.parent) && node.parent.expression === node && ts.isThrowStatement(node.parent.parent);
}

/** An identifier that names something here rather than reading a value. */
function isDeclarationName(node: ts.Identifier): boolean {
  const p = node.parent;
  return (
    ((ts.isVariableDeclaration(p) ||
      ts.isParameter(p) ||
      ts.isFunctionDeclaration(p) ||
      ts.isFunctionExpression(p) ||
      ts.isClassDeclaration(p) ||
      ts.isMethodDeclaration(p) ||
      ts.isPropertyDeclaration(p) ||
      ts.isPropertyAssignment(p) ||
      ts.isPropertySignature(p) ||
      ts.isGetAccessor(p) ||
      ts.isSetAccessor(p) ||
      ts.isEnumMember(p)) &&
      p.name === node) ||
    (ts.isBindingElement(p) && (p.name === node || p.propertyName === node)) ||
    (ts.isPropertyAccessExpression(p) && p.name === node) ||
    ts.isImportSpecifier(p) ||
    ts.isImportClause(p) ||
    ts.isNamespaceImport(p) ||
    ts.isExportSpecifier(p) ||
    ts.isLabeledStatement(p) ||
    ts.isBreakOrContinueStatement(p) ||
    ts.isQualifiedName(p)
  );
}

function isAssignmentTarget(node: ts.Node): boolean {
  const p = node.parent;
  return (
    ts.isBinaryExpression(p) &&
    p.left === node &&
    p.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
    p.operatorToken.kind <= ts.SyntaxKind.LastAssignment
  );
}

function checkRunTime(node: ts.Node, checker: ts.TypeChecker, report: (node: ts.Node, rule: string) => void): void {
  if (ts.isIdentifier(node) && !isDeclarationName(node)) {
    const symbol = ts.isShorthandPropertyAssignment(node.parent)
      ? checker.getShorthandAssignmentValueSymbol(node.parent)
      : resolved(checker, checker.getSymbolAtLocation(node));
    // The global object itself, which TypeScript declares with no declaration of its own.
    const theGlobal = node.text === 'globalThis' && symbol !== undefined && !symbol.declarations?.length;
    if ((theGlobal || isBuiltIn(symbol)) && !Object.hasOwn(SAFE_GLOBALS, node.text) && !isThrownAtOnce(node))
      report(node, 'a global tool code could have replaced: take it in primordials.ts');
    return;
  }
  if (ts.isPropertyAccessExpression(node) && !ts.isPrivateIdentifier(node.name)) {
    const symbol = checker.getSymbolAtLocation(node.name);
    if (isBuiltIn(symbol) && !Object.hasOwn(SAFE_MEMBERS, node.name.text) && !isThrownAtOnce(node))
      report(node, 'a built-in member tool code could have replaced: take it in primordials.ts');
    else if (isOptionalOfOurs(symbol))
      report(node, 'an optional property: absent, it is looked up on prototypes tool code can change (ownValue)');
    return;
  }
  if (ts.isElementAccessExpression(node) && isAssignmentTarget(node)) {
    report(node, 'an element assignment can call a setter on a prototype (setOwn)');
    return;
  }
  if (ts.isForOfStatement(node))
    report(node.expression, 'for…of walks the array iterator, which tool code can replace');
  else if (ts.isSpreadElement(node)) report(node, 'spread walks the array iterator, which tool code can replace');
  else if (ts.isArrayBindingPattern(node) || (ts.isArrayLiteralExpression(node) && isAssignmentTarget(node)))
    report(node, 'array destructuring walks the array iterator, which tool code can replace');
  else if (ts.isAwaitExpression(node))
    report(node, "await reads a promise's constructor and then, which tool code can replace");
  else if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.InstanceOfKeyword)
    report(node, 'instanceof asks Symbol.hasInstance, which tool code can define');
}
