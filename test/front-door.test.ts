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

  it('exports the errors an app branches on, the same classes as moat-sdk/errors; a failed tool call is read by kind', () => {
    const classes = Object.entries(moat).filter(([name]) => name.endsWith('Error'));
    expect(classes.map(([name]) => name).sort()).toEqual([
      'ChatBusyError', // send() while a run is under way: wait, or stop() it
      'CodeError', // a sandboxed script threw: show it, or hand it back to the model
      'McpConnectionError', // an MCP server cannot be reached or refused: reconnect, sign in
      'MoatError', // any of ours
      'ModelHTTPError', // the model's server refused: a key (401), a limit (429), an address (404)
      'ModelNetworkError', // offline: try again later
      'ModelStreamError', // the answer broke off: retry()
      'OutputValidationError', // a structured output that does not fit: ask again, or fall back
      'StoreQuotaError', // storage is full: tell the person
      'StoreUnavailableError', // no IndexedDB (a private window): keep threads in memory
      'ThreadBusyError', // ifBusy: 'fail' and another run holds the thread
      'ThreadNotFoundError', // a thread a reload forgot: give the agent a checkpointer
      'WorkerStartError', // the tools module cannot start: fix the import, or run without tools
    ]);
    for (const [name, value] of classes) expect(value).toBe((errors as Record<string, unknown>)[name]);
    for (const name of ['ToolTimeoutError', 'ToolDeniedError', 'WorkerCrashedError', 'NetworkDeniedError', 'ToolError'])
      expect(errors).toHaveProperty(name);
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

  it("the worker entry exports the errors a tool throws or catches, none of the wire's internals", () => {
    // Read, not imported: evaluating moat-sdk/worker locks the realm it runs in.
    const source = readFileSync(resolve(import.meta.dirname, '..', 'worker', 'index.ts'), 'utf8');
    expect(source).not.toMatch(/export \* from '\.\.\/src\/errors/);
    const block = /export \{([^}]*)\} from '\.\.\/src\/errors\/index'/.exec(source)?.[1] ?? '';
    const names = block
      .split(',')
      .map((name) => name.trim().replace(/^type /, ''))
      .filter(Boolean);
    expect(names).toEqual([
      'MoatError',
      'NetworkDeniedError',
      'StoreKeyError',
      'StorePermissionError',
      'StoreQuotaError',
      'StoreUnavailableError',
      'StoreValueError',
      'ToolError',
      'ToolErrorOptions',
      'UnknownMediaTypeError',
    ]);
    for (const name of names) expect(Object.keys(errors).includes(name) || name.endsWith('Options')).toBe(true);
  });
});
