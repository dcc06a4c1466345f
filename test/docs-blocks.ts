/**
 * The TypeScript in the docs, checked as users would write it: every ```ts and ```tsx block of
 * README.md and docs/*.md, and every example file under docs/ (`.ts`, `.tsx`), becomes a module
 * of its own, compiled with the project's options, where
 * `moat-sdk` and `moat-sdk/worker` are this checkout's sources.
 *
 * A block that continues an earlier one (it uses an `agent` made above, say) says what it takes
 * in an HTML comment right before it, which readers do not see:
 *
 *     <!-- context: import type { Agent } from 'moat-sdk'; declare const agent: Agent; -->
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

export interface DocBlock {
  /** The Markdown file and the line its block opens on. */
  file: string;
  line: number;
  lang: 'ts' | 'tsx';
  /** What the hidden context comment gives it (declarations, imports). */
  context: string;
  code: string;
}

export interface BlockProblem {
  file: string;
  line: number;
  message: string;
}

const FENCE = /^```(ts|typescript|tsx)\s*$/;
const CONTEXT = /^<!--\s*context:\s*([\s\S]*?)\s*-->\s*$/;

/** The TypeScript blocks of one Markdown text. */
export function extractBlocks(file: string, markdown: string): DocBlock[] {
  const lines = markdown.split('\n');
  const blocks: DocBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = FENCE.exec(lines[i] ?? '');
    if (!open) {
      // Any other fenced block is skipped whole, so its lines are not read as fences.
      if (/^```/.test(lines[i] ?? '')) {
        i++;
        while (i < lines.length && !/^```\s*$/.test(lines[i] ?? '')) i++;
      }
      continue;
    }
    const start = i;
    const body: string[] = [];
    for (i++; i < lines.length && !/^```\s*$/.test(lines[i] ?? ''); i++) body.push(lines[i] ?? '');
    if (i >= lines.length) throw new Error(`${file}:${start + 1}: a code block that never closes`);
    let previous = start - 1;
    while (previous >= 0 && (lines[previous] ?? '').trim() === '') previous--;
    const context = CONTEXT.exec(lines[previous] ?? '')?.[1] ?? '';
    blocks.push({
      file,
      line: start + 1,
      lang: open[1] === 'tsx' ? 'tsx' : 'ts',
      context,
      code: body.join('\n'),
    });
  }
  return blocks;
}

/** README.md, and every Markdown file and example file under docs/. */
export function docFiles(root: string): string[] {
  const files = [join(root, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (/\.(md|tsx?)$/.test(entry.name)) files.push(path);
    }
  };
  walk(join(root, 'docs'));
  return files;
}

/**
 * Compile every block (each a module, beside the docs so relative imports resolve as written)
 * and return what the compiler found, at the block's line in its Markdown file.
 */
export function checkBlocks(root: string, blocks: readonly DocBlock[]): BlockProblem[] {
  const configPath = join(root, 'tsconfig.json');
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  const parsed = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
  const options: ts.CompilerOptions = {
    ...parsed.options,
    noEmit: true,
    // A block shows one thing: what it declares for the reader need not be used.
    noUnusedLocals: false,
    noUnusedParameters: false,
    jsx: ts.JsxEmit.ReactJSX,
  };
  // Virtual files named after their Markdown file and line, in the Markdown file's folder.
  const virtual = new Map<string, { block: DocBlock; text: string; offset: number }>();
  for (const block of blocks) {
    const name = `${block.file.replace(/\.md$/, '')}.block-${block.line}.${block.lang}`;
    // The context goes on the block's first line, so the block's lines keep their numbers.
    const prefix = block.context ? `${block.context.replace(/\n/g, ' ')} ` : '';
    const text = `${prefix}${block.code}\nexport {};\n`;
    virtual.set(name, { block, text, offset: prefix.length });
  }
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => virtual.get(f)?.text ?? readFile(f);
  host.fileExists = (f) => virtual.has(f) || fileExists(f);
  host.getSourceFile = (f, language, onError, create) => {
    const v = virtual.get(f);
    return v ? ts.createSourceFile(f, v.text, language, true) : getSourceFile(f, language, onError, create);
  };
  const program = ts.createProgram([...virtual.keys()], options, host);
  const problems: BlockProblem[] = [];
  for (const [name, { block }] of virtual) {
    const source = program.getSourceFile(name);
    if (!source) continue;
    const diagnostics = [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)];
    for (const d of diagnostics) {
      const line = d.start === undefined ? 0 : source.getLineAndCharacterOfPosition(d.start).line;
      problems.push({
        file: relative(root, block.file),
        line: block.line + 1 + line,
        message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
      });
    }
  }
  return problems;
}

/** Every block of the docs under `root`. */
export function docBlocks(root: string): DocBlock[] {
  return docFiles(root).flatMap((file) => {
    const text = readFileSync(file, 'utf8');
    if (file.endsWith('.md')) return extractBlocks(file, text);
    // An example file is one block, from its first line.
    return [{ file, line: 0, lang: file.endsWith('.tsx') ? 'tsx' : 'ts', context: '', code: text }];
  });
}
