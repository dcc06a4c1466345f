/**
 * An MCP server for tests, on 127.0.0.1: the official SDK (session-server.ts, tools.ts) over
 * Streamable HTTP, served by node:http.
 *
 * - `/mcp`: stateful. A session id, one SDK server and transport per session; POST carries
 *   messages, GET opens the server's SSE stream, DELETE ends the session.
 * - `/stateless/mcp`: POST only, a fresh server and transport per request.
 * - `/auth/mcp`: as `/mcp`, but a request without `Authorization: Bearer test-token` is a 401.
 * - `/oauth/mcp`: as `/mcp`, for a bearer token from the test authorization server (oauth.ts, on
 *   `authUrl`); without one, a 401 whose `WWW-Authenticate` names the resource's metadata
 *   (`/.well-known/oauth-protected-resource/oauth/mcp`, RFC 9728), which names that server.
 *   Calling `add` there also takes the scope `mcp:admin`: without it, a 403 `insufficient_scope`.
 * - `/no-cors/mcp`: as `/mcp`, with no CORS headers at all, so a browser's fetch of it fails.
 * - `/huge-error/mcp`: not MCP: every request gets a 500 with a 100 KB body.
 * - `GET /__log`: every request that reached the server (the `/__` ones aside), oldest first.
 *   `GET /__cancelled`: the cancellations the `slow` tool saw. `POST /__reset`: clears both and
 *   the tools `add_tool` added, and the authorization server's clients, tokens and log.
 *   `GET /__oauth/log`: the requests that reached the authorization server.
 *   `POST /__oauth/expire`: its access tokens stop working (a client must refresh).
 *
 * Every other answer carries CORS headers for any origin, the opaque `null` of a sandboxed
 * worker included, and `Cross-Origin-Resource-Policy: cross-origin` for the cross-origin
 * isolated test pages. The SDK's DNS-rebinding check (Host and Origin allow-lists) is off by
 * default and stays off: it would refuse `Origin: null`.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { legacySseEndpoint } from './legacy-sse';
import { ADMIN_SCOPE, startTestAuthServer, TEST_SCOPE } from './oauth';
import { sessionServer } from './session-server';
import type { ToolState } from './tools';

/** A request the server received. */
export interface LoggedRequest {
  method: string;
  path: string;
  /** The `Origin` header: `'null'` from an opaque origin, `null` when there was none. */
  origin: string | null;
  /** The JSON-RPC method of a POST's message (of the first, for a batch). */
  jsonrpcMethod?: string;
  /** The query of a request to the authorization server's `/authorize`. */
  query?: string;
}

export interface McpTestServer {
  /** `http://127.0.0.1:PORT`, without a trailing slash. */
  url: string;
  /** The authorization server of `/oauth/mcp`, on another port. */
  authUrl: string;
  close(): Promise<void>;
}

/** The token `/auth/mcp` wants, as `Authorization: Bearer test-token`. */
export const TEST_TOKEN = 'test-token';

const CORS_HEADERS = {
  'Access-Control-Allow-Origin': '*',
  'Access-Control-Allow-Methods': 'GET, POST, DELETE, OPTIONS',
  'Access-Control-Allow-Headers':
    'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
  'Access-Control-Expose-Headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
  'Access-Control-Max-Age': '600',
  'Cross-Origin-Resource-Policy': 'cross-origin',
};

type Handle = (req: IncomingMessage, res: ServerResponse, body: unknown) => Promise<void>;

interface Route {
  handle: Handle;
  cors: boolean;
  /** `token`: the fixed TEST_TOKEN; `oauth`: a token from the authorization server. */
  auth?: 'token' | 'oauth';
}

/**
 * Starts the server; `port` 0 takes a free one.
 *
 * @example
 * const server = await startMcpTestServer();
 * await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', server.url)));
 * await server.close();
 */
export async function startMcpTestServer(port = 0): Promise<McpTestServer> {
  const state: ToolState = { added: new Set(), cancellations: [] };
  const log: LoggedRequest[] = [];
  const open = statefulEndpoint(state);
  const auth = statefulEndpoint(state);
  const noCors = statefulEndpoint(state);
  const oauth = statefulEndpoint(state);
  const legacy = legacySseEndpoint(state);
  const authServer = await startTestAuthServer();
  const routes = new Map<string, Route>([
    ['/mcp', { handle: open.handle, cors: true }],
    ['/stateless/mcp', { handle: (req, res, body) => stateless(state, req, res, body), cors: true }],
    ['/auth/mcp', { handle: auth.handle, cors: true, auth: 'token' }],
    ['/oauth/mcp', { handle: oauth.handle, cors: true, auth: 'oauth' }],
    ['/no-cors/mcp', { handle: noCors.handle, cors: false }],
    // Not MCP: a 500 whose body is 100 KB of text, as a broken server may send.
    [
      '/huge-error/mcp',
      { handle: async (_req, res) => sendJson(res, 500, { error: 'x'.repeat(100_000) }), cors: true },
    ],
    ['/sse', { handle: (req, res) => legacy.open(req, res), cors: true }],
    ['/sse/messages', { handle: (req, res, body) => legacy.message(req, res, body), cors: true }],
  ]);
  let url = '';
  const resourceMetadata = () => ({
    resource: `${url}/oauth/mcp`,
    authorization_servers: [authServer.url],
    scopes_supported: [TEST_SCOPE, ADMIN_SCOPE],
  });

  const control = (path: string, req: IncomingMessage, res: ServerResponse) => {
    res.setHeader('Cache-Control', 'no-store');
    for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method === 'GET' && path === '/__log') return sendJson(res, 200, log);
    if (req.method === 'GET' && path === '/__cancelled') return sendJson(res, 200, state.cancellations);
    if (req.method === 'GET' && path === '/__oauth/log') return sendJson(res, 200, authServer.log);
    if (req.method === 'POST' && path === '/__oauth/expire') {
      authServer.expireAccessTokens();
      return void res.writeHead(204).end();
    }
    if (req.method === 'POST' && path === '/__reset') {
      log.length = 0;
      state.cancellations.length = 0;
      state.added.clear();
      authServer.forget();
      return void res.writeHead(204).end();
    }
    sendJson(res, 404, { error: `No ${req.method} ${path}` });
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    if (path.startsWith('/__')) return control(path, req, res);
    const body = req.method === 'POST' ? await readJson(req) : undefined;
    log.push({ method: req.method ?? '', path, origin: req.headers.origin ?? null, ...jsonrpcMethod(body) });
    const route = routes.get(path);
    // Headers set here are merged into what the SDK's transport writes later.
    if (route?.cors !== false) for (const [name, value] of Object.entries(CORS_HEADERS)) res.setHeader(name, value);
    // Preflights pass everywhere CORS is on, so that a client sees the 404 itself.
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.method === 'GET' && path === '/.well-known/oauth-protected-resource/oauth/mcp')
      return sendJson(res, 200, resourceMetadata());
    if (!route) return sendJson(res, 404, { error: `No MCP endpoint at ${path}` });
    if (route.auth === 'token' && req.headers.authorization !== `Bearer ${TEST_TOKEN}`) {
      res.setHeader('WWW-Authenticate', 'Bearer');
      return sendJson(res, 401, rpcError(-32001, `Unauthorized: send 'Authorization: Bearer ${TEST_TOKEN}'`));
    }
    const bearer = /^Bearer (.+)$/.exec(req.headers.authorization ?? '')?.[1];
    const granted = bearer ? authServer.verify(bearer) : undefined;
    const metadata = `${url}/.well-known/oauth-protected-resource/oauth/mcp`;
    if (route.auth === 'oauth' && !granted) {
      const error = bearer ? 'error="invalid_token", ' : '';
      res.setHeader('WWW-Authenticate', `Bearer ${error}resource_metadata="${metadata}", scope="${TEST_SCOPE}"`);
      return sendJson(res, 401, rpcError(-32001, 'Unauthorized: sign in with the authorization server'));
    }
    // Calling `add` there takes a wider scope: a client must ask the user for it (step-up).
    if (route.auth === 'oauth' && isCallOf(body, 'add') && !granted?.scopes.includes(ADMIN_SCOPE)) {
      const scope = `${TEST_SCOPE} ${ADMIN_SCOPE}`;
      res.setHeader(
        'WWW-Authenticate',
        `Bearer error="insufficient_scope", scope="${scope}", resource_metadata="${metadata}"`,
      );
      return sendJson(res, 403, rpcError(-32001, `Forbidden: \`add\` needs the scope ${ADMIN_SCOPE}`));
    }
    if (body === NOT_JSON) return sendJson(res, 400, rpcError(-32700, 'Parse error: the body is not JSON'));
    await route.handle(req, res, body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, rpcError(-32603, `Test server error: ${String(error)}`));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const { port: actual } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${actual}`;
  return {
    url,
    authUrl: authServer.url,
    close: async () => {
      // Sessions first: that aborts their running tools (a `slow` sleep holds a timer) and ends their streams.
      await Promise.all([
        open.close(),
        auth.close(),
        noCors.close(),
        oauth.close(),
        legacy.close(),
        authServer.close(),
      ]);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A stateful endpoint: its sessions, each with its own SDK server and transport. */
function statefulEndpoint(state: ToolState): { handle: Handle; close(): Promise<void> } {
  const transports = new Map<string, StreamableHTTPServerTransport>();
  const handle: Handle = async (req, res, body) => {
    const sessionId = req.headers['mcp-session-id'];
    if (typeof sessionId === 'string') {
      const transport = transports.get(sessionId);
      if (transport) return transport.handleRequest(req, res, body);
      return sendJson(res, 404, rpcError(-32001, `Session not found: ${sessionId}`));
    }
    if (req.method !== 'POST' || !isInitializeRequest(body)) {
      return sendJson(res, 400, rpcError(-32000, 'Bad Request: no session id, and not an initialize request'));
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => void transports.set(id, transport),
    });
    // Before connect(): the SDK server chains its own onclose after this one. A DELETE closes it too.
    transport.onclose = () => {
      if (transport.sessionId) transports.delete(transport.sessionId);
    };
    await sessionServer(state).connect(transport);
    await transport.handleRequest(req, res, body);
  };
  const close = async () => {
    await Promise.all(Array.from(transports.values(), (transport) => transport.close()));
  };
  return { handle, close };
}

/** The stateless endpoint: a fresh SDK server and transport for each POST, closed with its response. */
async function stateless(state: ToolState, req: IncomingMessage, res: ServerResponse, body: unknown) {
  if (req.method !== 'POST') {
    // 405 tells a client there is no GET stream here (the SDK's client then goes on without one).
    res.setHeader('Allow', 'POST, OPTIONS');
    return sendJson(res, 405, rpcError(-32000, 'Method not allowed: this endpoint is stateless, POST only'));
  }
  const server = sessionServer(state);
  // No sessionIdGenerator: stateless (exactOptionalPropertyTypes refuses an explicit `undefined`).
  const transport = new StreamableHTTPServerTransport({});
  res.on('close', () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res, body);
}

/** Marks a POST body that did not parse. */
const NOT_JSON = Symbol('not JSON');

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return NOT_JSON;
  }
}

function isCallOf(body: unknown, tool: string): boolean {
  const message: unknown = Array.isArray(body) ? body[0] : body;
  if (typeof message !== 'object' || message === null || !('method' in message) || message.method !== 'tools/call')
    return false;
  return 'params' in message && (message.params as { name?: unknown } | undefined)?.name === tool;
}

function jsonrpcMethod(body: unknown): { jsonrpcMethod?: string } {
  const message: unknown = Array.isArray(body) ? body[0] : body;
  if (typeof message !== 'object' || message === null || !('method' in message)) return {};
  return typeof message.method === 'string' ? { jsonrpcMethod: message.method } : {};
}

function rpcError(code: number, message: string) {
  return { jsonrpc: '2.0', error: { code, message }, id: null };
}

function sendJson(res: ServerResponse, status: number, value: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify(value));
}
