// React is an optional peer: `moat-sdk` itself must load without it, only `moat-sdk/react` needs it.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

/** The packages a module reaches through its imports (static, dynamic and re-exports), all the way down, and the files. */
function reach(entry: string): { packages: Set<string>; files: Set<string> } {
  const packages = new Set<string>();
  const files = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const { fileName: specifier } of importedFiles) {
      if (!specifier.startsWith('.')) {
        packages.add(specifier);
        continue;
      }
      // A Vite query (`?bundled-script`) names the same file, read another way.
      const base = resolve(dirname(file), specifier.replace(/\?.*$/, ''));
      const found = [base, `${base}.ts`, resolve(base, 'index.ts')].find((f) => f.endsWith('.ts') && existsSync(f));
      if (found === undefined) throw new Error(`${relative(root, file)}: cannot find '${specifier}'`);
      visit(found);
    }
  };
  visit(resolve(root, entry));
  return { packages, files };
}

const isReact = (name: string) => name === 'react' || name.startsWith('react/') || name.startsWith('react-dom');

describe('react, an optional peer dependency', () => {
  it('is imported by moat-sdk/react (the walk finds it where it is)', () => {
    expect([...reach('src/react/index.ts').packages].filter(isReact)).toEqual(['react']);
  });

  it('is reached from no other entry of the package: moat-sdk, its subpaths and moat-sdk/worker load without it', () => {
    const exports = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')).exports as Record<
      string,
      { types: string }
    >;
    const entries = Object.entries(exports)
      .filter(([path]) => path !== './react')
      .map(([, { types }]) => types.replace('./dist/types/', '').replace(/\.d\.ts$/, '.ts'));
    expect(entries).toContain('src/index.ts');
    for (const entry of entries) {
      const { packages, files } = reach(entry);
      expect({ entry, react: [...packages].filter(isReact) }).toEqual({ entry, react: [] });
      expect([...files].filter((f) => f.startsWith(resolve(root, 'src/react')))).toEqual([]);
    }
  });
});
