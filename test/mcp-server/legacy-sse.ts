/**
 * The older HTTP+SSE transport (protocol 2024-11-05), for the client's fallback: GET `/sse` opens
 * the stream, whose first event names the URL to POST messages to (`/sse/messages?sessionId=…`).
 * A POST to `/sse` itself (a Streamable HTTP client's first try) is refused with 405.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { sessionServer } from './session-server';
import type { ToolState } from './tools';

export function legacySseEndpoint(state: ToolState) {
  const transports = new Map<string, SSEServerTransport>();
  return {
    /** GET: a new session's stream; anything else, 405. */
    async open(req: IncomingMessage, res: ServerResponse): Promise<void> {
      if (req.method !== 'GET') {
        res.writeHead(405, { Allow: 'GET, OPTIONS', 'Content-Type': 'application/json' });
        return void res.end(JSON.stringify({ error: 'This is the HTTP+SSE transport: GET opens the stream' }));
      }
      const transport = new SSEServerTransport('/sse/messages', res);
      transports.set(transport.sessionId, transport);
      res.on('close', () => transports.delete(transport.sessionId));
      await sessionServer(state).connect(transport);
    },
    /** POST: a message of the session the query names. */
    async message(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
      const id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId') ?? '';
      const transport = transports.get(id);
      if (!transport) return void res.writeHead(404).end(`No session ${id}`);
      await transport.handlePostMessage(req, res, body);
    },
    async close(): Promise<void> {
      await Promise.all(Array.from(transports.values(), (transport) => transport.close()));
    },
  };
}
