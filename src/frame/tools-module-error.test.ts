import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUNDLERS_GUIDE, readableUrl, toolsModuleError } from './tools-module-error';

/** What `vite build` makes of `new URL('./tools.worker.ts', import.meta.url)`: the source, inlined as it is. */
const source = readFileSync(join(import.meta.dirname, '../../test/consumers/vite/tools.worker.ts'), 'utf8');
const inlined = `data:video/mp2t;base64,${Buffer.from(source.repeat(8)).toString('base64')}`;

describe('toolsModuleError', () => {
  it('names a data: URL by its type and length, never its payload', () => {
    const message = toolsModuleError(inlined, "it was answered as 'video/mp2t', not JavaScript");
    expect(inlined.length).toBeGreaterThan(3_000);
    expect(message).toContain(`(a data: URL of video/mp2t, ${inlined.length.toLocaleString('en')} characters)`);
    expect(message).not.toContain('base64');
    expect(message).not.toContain('data:video');
    expect(message).not.toContain(inlined.slice(30, 60));
    expect(message.length).toBeLessThan(900);
  });

  it('says the cause, then the line each bundler needs, then where the guide is', () => {
    const message = toolsModuleError('http://localhost:8000/tools.worker.ts', 'HTTP 404');
    expect(message).toMatch(/^Could not load the tools module http:\/\/localhost:8000\/tools\.worker\.ts: HTTP 404\. /);
    expect(message).toContain("with Vite, import toolsUrl from './tools.worker.ts?worker&url'");
    expect(message).toContain("framedWorkers(new URL('./tools.worker.js', import.meta.url))");
    expect(message).toContain("'framedWorkers() from moat-sdk/pool' in module.parser.javascript.worker");
    expect(message).toContain('optimization.splitChunks.chunks: (chunk) => !chunk.hasRuntime()');
    expect(message).toContain(
      "with esbuild, the tools module as an entry point of its own and new URL('./tools.worker.js'",
    );
    expect(message.endsWith(`See ${BUNDLERS_GUIDE}`)).toBe(true);
  });
});

describe('readableUrl', () => {
  it('keeps an ordinary URL whole', () => {
    expect(readableUrl('https://example.com/assets/tools.worker-Bq3x9.js')).toBe(
      'https://example.com/assets/tools.worker-Bq3x9.js',
    );
  });

  it('names a data: URL without a media type as text/plain', () => {
    expect(readableUrl('data:,export%20default%201')).toBe('(a data: URL of text/plain, 26 characters)');
  });

  it('cuts a very long URL to its start and end, with its length', () => {
    const url = `https://example.com/${'a'.repeat(5_000)}.js`;
    const shown = readableUrl(url);
    expect(shown.length).toBeLessThan(200);
    expect(shown.startsWith('https://example.com/aaa')).toBe(true);
    expect(shown).toContain('aaa.js (5,023 characters)');
  });
});
