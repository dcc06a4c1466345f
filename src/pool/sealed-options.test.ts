import { describe, expect, it } from 'vitest';
import { framedWorkers, sealedFrameCsp } from '../frame/framed-worker';
import { resolvePoolOptions } from './pool-options';

describe('sealed workers: options and policy', () => {
  it('lets the frame run its own script, eval and blob workers, no script URL at all, and no connection under deny', () => {
    expect(sealedFrameCsp([])).toBe(
      "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob: data:; connect-src 'none'; base-uri 'none'; form-action 'none'",
    );
    expect(sealedFrameCsp('*')).toContain('connect-src *;');
    // An MCP server's client: its server's origin and nothing else.
    expect(sealedFrameCsp(['https://mcp.example.com'])).toContain('connect-src https://mcp.example.com;');
  });

  it('is what a URL means; without a page to hold its frame it fails at once and names the plain mode', () => {
    for (const worker of ['https://app.example/tools.js', new URL('https://app.example/tools.js')]) {
      expect(() => resolvePoolOptions({ worker })).toThrow(
        /^Sealed tool workers need a page .* pass `worker: \(\) => new Worker\(url, \{ type: "module" \}\)`, the plain mode$/,
      );
    }
    // framedWorkers(url) is the same, by name: the tools module's address.
    expect(framedWorkers('https://a.example/t.js')).toEqual(new URL('https://a.example/t.js'));
    expect(() => resolvePoolOptions({ worker: framedWorkers('https://a.example/t.js') })).toThrow(/need a page/);
  });

  it('refuses what is neither a URL nor a worker factory, quoting it', () => {
    expect(() => framedWorkers('')).toThrow(
      "Expected `worker` to be the tools module's URL (a string or URL), got `''` (string)",
    );
    // In Node there is no document to resolve a relative address against.
    expect(() => framedWorkers('./tools.js')).toThrow(/Expected `worker` to be the tools module's URL/);
    expect(() => resolvePoolOptions({ worker: 7 as never })).toThrow(
      "Expected `worker` to be the tools module's URL (sealed), or a function that makes a Worker (plain), got `7` (number)",
    );
    expect(() => resolvePoolOptions({ worker: { framed: 'https://a.example/t.js' } as never })).toThrow(
      /Expected `worker` to be the tools module's URL/,
    );
  });
});
