/**
 * The page scripts/mcp-conformance.ts opens: `window.runMcpConformance(url)` connects Moat's MCP
 * client to a conformance scenario's server (through the harness's CORS proxy), lists its tools
 * and calls each one once with arguments made from its input schema, and says what happened.
 */
import { ToolInvoker } from '../../src/invoker/tool-invoker.ts';
import { mcpServer } from '../../src/mcp/mcp-server.ts';
import { browserOAuth } from '../../src/mcp/oauth.ts';
import type { JSONSchema } from '../../src/providers/tool-spec.ts';
import type { ClientRun, Failure } from './types.ts';

/** Per call: below the conformance CLI's 30 s limit for the whole client command. */
const CALL_TIMEOUT_MS = 12_000;

function failure(error: unknown): Failure {
  if (!(error instanceof Error)) return { name: typeof error, message: String(error) };
  const cause = (error as { cause?: unknown }).cause;
  return {
    name: error.name,
    message: error.message,
    ...(cause === undefined
      ? {}
      : { cause: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause) }),
  };
}

/** Arguments for a schema: a default or the first enum value when given; numbers 1, 2, 3… in order; 'test'; true. */
export function argsFor(schema: JSONSchema): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JSONSchema>;
  let n = 0;
  const sample = (property: JSONSchema): unknown => {
    if (property.default !== undefined) return property.default;
    if (Array.isArray(property.enum) && property.enum.length > 0) return property.enum[0];
    const type = Array.isArray(property.type) ? property.type[0] : property.type;
    if (type === 'number' || type === 'integer') return ++n;
    if (type === 'boolean') return true;
    if (type === 'array') return [];
    if (type === 'object') return argsFor(property);
    if (type === 'null') return null;
    return 'test';
  };
  return Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, sample(property)]));
}

async function runMcpConformance(url: string): Promise<ClientRun> {
  const run: ClientRun = { url, tools: [], skipped: [], calls: [] };
  // A server that wants OAuth gets it: a popup (the suite's /authorize answers at once) lands on
  // the redirect page, which finishes the sign-in.
  const redirectUrl = new URL('../mcp-oauth/callback.html', location.href);
  // The client id the suite expects where its authorization server takes metadata documents.
  const clientMetadataUrl = 'https://conformance-test.local/client-metadata.json';
  const authProvider = browserOAuth({ url, redirectUrl, clientMetadataUrl });
  const server = mcpServer({ url, authProvider });
  try {
    const invoker = new ToolInvoker({ tools: [server], onError: 'throw', timeoutMs: CALL_TIMEOUT_MS });
    const specs = await invoker.specs();
    run.tools = specs.map((spec) => spec.name);
    run.skipped = [...server.skipped];
    for (const [i, spec] of specs.entries()) {
      const args = argsFor(spec.inputSchema);
      try {
        const { messages } = await invoker.run([{ id: `call-${i + 1}`, name: spec.name, args }]);
        const message = messages[0];
        run.calls.push({ name: spec.name, args, status: message?.status ?? 'error', content: message?.content });
      } catch (error) {
        run.calls.push({ name: spec.name, args, status: 'threw', error: failure(error) });
      }
    }
  } catch (error) {
    run.error = failure(error);
  } finally {
    await server.close().catch(() => {});
    await authProvider.signOut().catch(() => {});
  }
  return run;
}

declare global {
  interface Window {
    runMcpConformance: typeof runMcpConformance;
  }
}

window.runMcpConformance = runMcpConformance;
