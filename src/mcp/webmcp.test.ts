/**
 * WebMCP without the polyfill: an app builds without it installed, and a page with no WebMCP gets
 * a typed error naming it. (webmcp.browser.test.ts tests WebMCP itself, polyfilled and native.)
 */
import { resolve } from 'node:path';
import { build, type Plugin } from 'vite';
import { describe, expect, it } from 'vitest';
import { WebMCPUnavailableError } from '../errors/webmcp-unavailable-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import { exposeTools, pageTools } from './webmcp';

const root = resolve(import.meta.dirname, '../..');

/**
 * Build for production, as an app's bundler would, an entry importing `names` from moat-sdk's
 * front door, where `@mcp-b/webmcp-polyfill` is not installed: resolving it fails the build, as
 * Vite, webpack and esbuild fail on any import of a missing package, a dynamic one included.
 */
async function buildWithoutPolyfill(names: string[]): Promise<string> {
  const entry = '\0virtual:app';
  const app: Plugin = {
    name: 'app-without-the-polyfill',
    enforce: 'pre',
    resolveId(id) {
      if (id === 'virtual:app') return entry;
      if (id.startsWith('@mcp-b/webmcp-polyfill')) this.error(`Could not resolve "${id}": it is not installed`);
      return undefined;
    },
    load(id) {
      if (id !== entry) return undefined;
      return `import { ${names.join(', ')} } from ${JSON.stringify(resolve(root, 'src/index.ts'))};\nexport { ${names.join(', ')} };`;
    },
  };
  const result = await build({
    root,
    configFile: false,
    logLevel: 'silent',
    plugins: [app],
    build: {
      write: false,
      minify: false,
      rolldownOptions: { input: 'virtual:app', preserveEntrySignatures: 'strict' },
    },
  });
  const output = (Array.isArray(result) ? result[0] : result) as { output: { type: string; code?: string }[] };
  return output.output.map((chunk) => chunk.code ?? '').join('\n');
}

describe('WebMCP without the polyfill installed', () => {
  it('an app builds for production, whether it uses WebMCP or not', async () => {
    const chat = await buildWithoutPolyfill(['createAgent', 'createWorkerPool']);
    expect(chat).toContain('createAgent');
    const webmcp = await buildWithoutPolyfill(['createAgent', 'exposeTools', 'pageTools']);
    // The app that uses WebMCP has Moat's WebMCP code, and still no import of the polyfill.
    expect(webmcp).toContain('document.modelContext');
  }, 60_000);

  it('a page with no WebMCP gets a typed error naming the package and the call that installs it', async () => {
    // Node has no document: the same as a browser without WebMCP and no polyfill installed.
    const ready = exposeTools(new ToolInvoker({ tools: [pageTools()] })).ready;
    await expect(ready).rejects.toThrow(WebMCPUnavailableError);
    await expect(ready).rejects.toMatchObject({ reason: 'missing' });
    await expect(ready).rejects.toThrow(/install @mcp-b\/webmcp-polyfill and call its initializeWebMCPPolyfill\(\)/);
    await expect(pageTools().specs()).rejects.toThrow(WebMCPUnavailableError);
  });

  it('says a secure context is needed where the page is not one', async () => {
    const secure = Object.getOwnPropertyDescriptor(globalThis, 'isSecureContext');
    Object.defineProperty(globalThis, 'isSecureContext', { value: false, configurable: true });
    try {
      await expect(pageTools().specs()).rejects.toMatchObject({ name: 'WebMCPUnavailableError', reason: 'insecure' });
      await expect(pageTools().specs()).rejects.toThrow(/secure context/);
    } finally {
      if (secure) Object.defineProperty(globalThis, 'isSecureContext', secure);
      else delete (globalThis as { isSecureContext?: boolean }).isSecureContext;
    }
  });
});
