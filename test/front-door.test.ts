import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as errors from '../src/errors/index';
import * as moat from '../src/index';

// `moat-sdk` exports what an app uses; the building blocks are on subpaths (package.json's exports).
describe('the front door', () => {
  it('exports at most 45 runtime names', () => {
    expect(Object.keys(moat).length).toBeLessThanOrEqual(45);
  });

  it('exports every error class an app catches, the same classes as moat-sdk/errors', () => {
    const classes = Object.entries(moat).filter(([name]) => name.endsWith('Error'));
    expect(classes.length).toBeGreaterThan(20);
    for (const [name, value] of classes) expect(value).toBe((errors as Record<string, unknown>)[name]);
  });

  it('keeps internals out: no helper of the error envelope, no store layout, no converter', () => {
    for (const name of ['describeValue', 'STORE_MIGRATIONS', 'serializeError', 'toOpenAIChat', 'signatureOf'])
      expect(moat).not.toHaveProperty(name);
  });

  it('names each subpath alike in package.json, tsconfig.json and typedoc.json', () => {
    const read = (file: string) => JSON.parse(readFileSync(resolve(import.meta.dirname, '..', file), 'utf8'));
    const exported: Record<string, string> = {};
    for (const [path, entry] of Object.entries(read('package.json').exports as Record<string, { types: string }>))
      exported[path.replace(/^\./, 'moat-sdk')] = entry.types.replace('./dist/types/', '').replace(/\.d\.ts$/, '.ts');
    const paths = read('tsconfig.json').compilerOptions.paths as Record<string, string[]>;
    expect(Object.fromEntries(Object.entries(paths).map(([name, [file]]) => [name, file?.slice(2)]))).toEqual(exported);
    expect([...read('typedoc.json').entryPoints].sort()).toEqual(Object.values(exported).sort());
    // The library build's entries (vite.config.ts), by name.
    const config = readFileSync(resolve(import.meta.dirname, '..', 'vite.config.ts'), 'utf8');
    const entries = /const ENTRIES[^{]*\{([^}]*)\}/.exec(config)?.[1] ?? '';
    const built = Object.fromEntries(
      [...entries.matchAll(/(\w+): '([^']+)'/g)].map(([, name, file]) => [
        name === 'moat' ? 'moat-sdk' : `moat-sdk/${name}`,
        file,
      ]),
    );
    expect(built).toEqual(exported);
  });
});
