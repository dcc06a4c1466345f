/**
 * The MCP test server on its own (Playwright's webServer, or by hand):
 * `node --import tsx test/mcp-server/main.ts`, on `MCP_PORT` (default 5179).
 */
import { startMcpTestServer } from './server';

const server = await startMcpTestServer(Number(process.env.MCP_PORT ?? 5179));
console.log(`MCP test server listening on ${server.url}`);

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    void server.close().then(() => process.exit(0));
  });
}
