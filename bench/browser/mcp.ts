/**
 * A trivial MCP tool call: through Moat's invoker (the official SDK client sealed in a frame's
 * worker, mcpServer) and, the anchors, through the same SDK client on the page itself, and through
 * that client's sealed worker driven bare over its port (the floor of the sealed design), all to
 * the test MCP server (test/mcp-server) that bench/run.ts starts and names in the page's `?mcp=`.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { type Remote, wrap } from 'comlink';
import { ToolInvoker } from '../../src/invoker/tool-invoker';
import { startClientFrame } from '../../src/mcp/client-frame';
import { mcpServer } from '../../src/mcp/mcp-server';
import type { McpClientApi } from '../../src/mcp/protocol';
import { type BenchCase, time } from '../case';

/** The test server's endpoint, from the page's query string (bench/run.ts sets it). */
function endpoint(): string {
  const base = new URLSearchParams(location.search).get('mcp');
  if (!base) throw new Error('No MCP test server: open the bench page with ?mcp=<its URL> (bench/run.ts does)');
  return `${base}/mcp`;
}

/** One call is one HTTP round trip on localhost (1–3 ms): single calls, many of them, paired one by one. */
const REPEAT = 200;
const WARMUP = 20;

/**
 * Moat's MCP client worker in a sealed frame, started as mcpServer starts it (startClientFrame),
 * connected, and driven with Comlink's bare `wrap` of its port: no channel guard, no checks of
 * its answers, no McpClient.
 */
async function sealedSdkClient(url: string): Promise<{ client: Remote<McpClientApi>; close(): Promise<void> }> {
  const { frame, port } = await startClientFrame(new URL(url).origin, 'Moat bench MCP client');
  const client = wrap<McpClientApi>(port);
  const connected = await client.connect(url, {});
  if (connected.t !== 'connected')
    throw new Error(`The sealed MCP client did not connect: ${JSON.stringify(connected)}`);
  return {
    client,
    async close() {
      await client.close();
      port.close();
      frame.close();
    },
  };
}

export const mcpCases: BenchCase[] = [
  {
    name: 'anchor/mcp-sdk-call-rtt',
    unit: 'ms',
    repeat: REPEAT,
    warmup: WARMUP,
    note: "one `echo` call through the official MCP SDK's Client (Streamable HTTP) on the page itself, to the local test server; connected and listed once beforehand",
    async setup() {
      const client = new Client({ name: 'moat-bench', version: '0.1.0' }, { capabilities: {} });
      await client.connect(new StreamableHTTPClientTransport(new URL(endpoint())));
      // As Moat's side lists once on connecting.
      await client.listTools();
      return {
        sample: () => time(() => client.callTool({ name: 'echo', arguments: { text: 'x' } })),
        teardown: () => client.close(),
      };
    },
  },
  {
    name: 'anchor/mcp-sealed-sdk-call-rtt',
    unit: 'ms',
    repeat: REPEAT,
    warmup: WARMUP,
    note: "one `echo` call through Moat's MCP client worker (the SDK's Client) in a sealed frame, as mcpServer makes it, driven with Comlink's bare wrap of its port (no channel guard, no McpClient, no invoker): the floor of the sealed design, CORS preflight on every POST included; connected and listed once beforehand",
    async setup() {
      const sealed = await sealedSdkClient(endpoint());
      await sealed.client.listTools();
      let id = 1;
      const call = async () => {
        const answer = await sealed.client.callTool(id++, 'echo', { text: 'x' });
        if (answer.t !== 'result') throw new Error(`Expected a result, got ${JSON.stringify(answer)}`);
      };
      return { sample: () => time(call), teardown: () => sealed.close() };
    },
  },
  moatCall({
    name: 'mcp/call-rtt',
    anchor: 'anchor/mcp-sdk-call-rtt',
    note: "one `echo` call through ToolInvoker.run over mcpServer: the SDK client in a sealed frame's worker, the page's port to it, the invoker's turn and ToolMessage; connected and listed once beforehand. Against the SDK on the page: the worker's requests say `Origin: null`, and Chromium sends a CORS preflight before every one of its POSTs (not cached, Access-Control-Max-Age notwithstanding), where the page's own origin pays one for the run; mcp/call-rtt-sealed-floor sets that cost aside",
  }),
  moatCall({
    name: 'mcp/call-rtt-sealed-floor',
    anchor: 'anchor/mcp-sealed-sdk-call-rtt',
    note: "the same call as mcp/call-rtt, against the same sealed client worker driven bare over its port: what McpClient and the invoker add to the sealed design's floor",
  }),
];

/** The `echo` call through ToolInvoker.run over mcpServer, against `anchor`. */
function moatCall(c: { name: string; anchor: string; note: string }): BenchCase {
  return {
    ...c,
    unit: 'ms',
    target: { max: 1.2 },
    repeat: REPEAT,
    warmup: WARMUP,
    async setup() {
      const server = mcpServer({ url: endpoint() });
      const invoker = new ToolInvoker({ tools: [server] });
      await server.specs();
      let n = 0;
      return {
        sample: () => time(() => invoker.run([{ id: `c${n++}`, name: 'echo', args: { text: 'x' } }])),
        teardown: () => server.close(),
      };
    },
  };
}
