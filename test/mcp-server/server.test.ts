// The MCP test server, checked with the official SDK client: what the browser tests rely on holds
// for a client that follows the spec.
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { OAuthClientInformationMixed, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { type Progress, type Tool, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type McpTestServer, startMcpTestServer } from './server';
import { RED_DOT_PNG } from './tools';

let server: McpTestServer;
const clients: Client[] = [];

beforeAll(async () => {
  server = await startMcpTestServer();
});
afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await server.close();
});
beforeEach(async () => {
  await fetch(`${server.url}/__reset`, { method: 'POST' });
});

async function connect(path = '/mcp', requestInit: RequestInit = {}) {
  const client = new Client({ name: 'moat-test', version: '0.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(path, server.url), { requestInit });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

/** Every tool, following `nextCursor` page by page. */
async function listAll(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? undefined : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  client.callTool({ name, arguments: args });
const getJson = async (path: string) => (await fetch(`${server.url}${path}`)).json();
const BUILT_INS = ['echo', 'add', 'count', 'slow', 'fail', 'image', 'resource', 'delete_file', 'add_tool'];

describe('tools/list', () => {
  it('pages 3 tools at a time: following nextCursor gives them all, the first page alone 3', async () => {
    const { client } = await connect();
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(['echo', 'add', 'count']);
    expect(first.nextCursor).toEqual(expect.any(String));
    expect((await listAll(client)).map((tool) => tool.name)).toEqual(BUILT_INS);
  });

  it('shows the zod schemas as JSON Schema, and the annotations', async () => {
    const tools = new Map((await listAll((await connect()).client)).map((tool) => [tool.name, tool]));
    expect(tools.get('echo')).toMatchObject({
      inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      annotations: { readOnlyHint: true },
    });
    expect(tools.get('add')?.outputSchema).toMatchObject({ type: 'object', properties: { sum: { type: 'number' } } });
    expect(tools.get('count')?.inputSchema.required).toEqual(['to']);
    expect(tools.get('delete_file')?.annotations).toEqual({ destructiveHint: true, readOnlyHint: false });
  });

  it('refuses a cursor it did not make', async () => {
    const { client } = await connect();
    await expect(client.listTools({ cursor: 'nonsense' })).rejects.toThrow(/Invalid cursor/);
  });
});

describe('tools/call', () => {
  it('echo, add (structured), fail (isError), delete_file', async () => {
    const { client } = await connect();
    expect((await call(client, 'echo', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'echo: hi' }]);
    const sum = await call(client, 'add', { a: 2, b: 3 });
    expect(sum).toMatchObject({ content: [{ type: 'text', text: '5' }], structuredContent: { sum: 5 } });
    const failed = await call(client, 'fail');
    expect(failed).toEqual({ content: [{ type: 'text', text: 'it broke on purpose' }], isError: true });
    expect((await call(client, 'delete_file', { path: '/a.txt' })).content).toEqual([
      { type: 'text', text: 'deleted /a.txt' },
    ]);
  });

  it('bad arguments are a tool error, an unknown tool a protocol error', async () => {
    const { client } = await connect();
    const bad = await call(client, 'echo', { text: 3 });
    expect(bad.isError).toBe(true);
    expect(JSON.stringify(bad.content)).toContain('text');
    await expect(call(client, 'toString')).rejects.toThrow(/Unknown tool 'toString'/);
  });

  it('count reports each step as progress', async () => {
    const { client } = await connect();
    const progress: Progress[] = [];
    const onprogress = (step: Progress) => void progress.push(step);
    const result = await client.callTool({ name: 'count', arguments: { to: 3, delayMs: 0 } }, undefined, {
      onprogress,
    });
    expect(result.content).toEqual([{ type: 'text', text: 'counted to 3' }]);
    expect(progress).toEqual([1, 2, 3].map((step) => ({ progress: step, total: 3, message: `step ${step}` })));
  });

  it('slow, cancelled through an AbortSignal, records the cancellation', async () => {
    const { client } = await connect();
    const controller = new AbortController();
    // slow reports progress 0 once it is waiting: the moment to cancel.
    const onprogress = () => controller.abort('user stopped it');
    const params = { name: 'slow', arguments: { ms: 60_000, tag: 'first' } };
    const slept = client.callTool(params, undefined, { onprogress, signal: controller.signal });
    await expect(slept).rejects.toThrow('user stopped it');
    await vi.waitFor(async () => {
      expect(await getJson('/__cancelled')).toEqual([{ tag: 'first', reason: 'user stopped it' }]);
    });
  });

  it('image: a text and a real PNG', async () => {
    const { client } = await connect();
    const { content } = await call(client, 'image');
    expect(content).toEqual([
      { type: 'text', text: 'a red dot' },
      { type: 'image', data: RED_DOT_PNG, mimeType: 'image/png' },
    ]);
    const png = Buffer.from(RED_DOT_PNG, 'base64');
    expect([...png.subarray(0, 8)]).toEqual([137, 80, 78, 71, 13, 10, 26, 10]);
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1, 1]);
  });

  it('resource: an embedded text resource and a link', async () => {
    const { client } = await connect();
    expect((await call(client, 'resource')).content).toEqual([
      { type: 'resource', resource: { uri: 'test://notes/1', mimeType: 'text/plain', text: 'note one' } },
      { type: 'resource_link', uri: 'test://notes/1', name: 'note-1', mimeType: 'text/plain' },
    ]);
  });
});

describe('add_tool', () => {
  it('says the list changed, and every session lists and runs the new tool', async () => {
    const { client } = await connect();
    const changed = vi.fn();
    client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
    expect((await call(client, 'add_tool', { name: 'greet' })).content).toEqual([
      { type: 'text', text: 'added greet' },
    ]);
    await vi.waitFor(() => expect(changed).toHaveBeenCalledOnce());

    const other = (await connect()).client;
    expect((await listAll(other)).map((tool) => tool.name)).toEqual([...BUILT_INS, 'greet']);
    expect((await call(other, 'greet')).content).toEqual([{ type: 'text', text: 'greet ran' }]);
    expect((await call(other, 'add_tool', { name: 'echo' })).isError).toBe(true);
  });

  it('/__reset removes the added tools', async () => {
    const { client } = await connect();
    await call(client, 'add_tool', { name: 'gone' });
    await fetch(`${server.url}/__reset`, { method: 'POST' });
    expect((await listAll(client)).map((tool) => tool.name)).toEqual(BUILT_INS);
  });
});

describe('the other endpoints', () => {
  it('/stateless/mcp: no session, same tools; list_changed arrives on the call stream (no GET stream here)', async () => {
    const { client, transport } = await connect('/stateless/mcp');
    expect(transport.sessionId).toBeUndefined();
    expect((await listAll(client)).map((tool) => tool.name)).toEqual(BUILT_INS);
    expect((await call(client, 'echo', { text: 'x' })).content).toEqual([{ type: 'text', text: 'echo: x' }]);
    const changed = vi.fn();
    client.setNotificationHandler(ToolListChangedNotificationSchema, changed);
    await call(client, 'add_tool', { name: 'fresh' });
    await vi.waitFor(() => expect(changed).toHaveBeenCalledOnce());
  });

  it('/auth/mcp: 401 without the token, works with it', async () => {
    // The SDK's error message leaves the status out; its `code` has it.
    await expect(connect('/auth/mcp')).rejects.toMatchObject({ code: 401 });
    const denied = await fetch(`${server.url}/auth/mcp`, { method: 'POST', body: '{}' });
    expect(denied.status).toBe(401);
    expect(denied.headers.get('access-control-allow-origin')).toBe('*');
    expect(await denied.json()).toMatchObject({ error: { message: expect.stringContaining('Bearer') } });
    const { client } = await connect('/auth/mcp', { headers: { Authorization: 'Bearer test-token' } });
    expect((await call(client, 'echo', { text: 'in' })).content).toEqual([{ type: 'text', text: 'echo: in' }]);
  });

  it('/oauth/mcp: the SDK client signs in with its authorization server (discovery, registration, PKCE), refreshes an expired token', async () => {
    const codes: string[] = [];
    const saved: { client?: OAuthClientInformationMixed; tokens?: OAuthTokens; verifier?: string } = {};
    // The SDK's provider interface, as an app implements it; "the user" follows the redirect.
    const provider: OAuthClientProvider = {
      redirectUrl: 'http://127.0.0.1:1/callback',
      clientMetadata: {
        client_name: 'moat-test',
        redirect_uris: ['http://127.0.0.1:1/callback'],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      },
      clientInformation: () => saved.client,
      saveClientInformation: (client) => {
        saved.client = client;
      },
      tokens: () => saved.tokens,
      saveTokens: (tokens) => {
        saved.tokens = tokens;
      },
      saveCodeVerifier: (verifier) => {
        saved.verifier = verifier;
      },
      codeVerifier: () => saved.verifier ?? '',
      redirectToAuthorization: async (url) => {
        const answer = await fetch(url, { redirect: 'manual' });
        codes.push(new URL(answer.headers.get('location') ?? '').searchParams.get('code') ?? '');
      },
    };
    const url = new URL('/oauth/mcp', server.url);
    const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
    await expect(new Client({ name: 'moat-test', version: '0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    expect(codes).toEqual([expect.any(String)]);
    await first.finishAuth(codes[0] ?? '');
    const { client } = await connect('/oauth/mcp', {
      headers: { Authorization: `Bearer ${saved.tokens?.access_token}` },
    });
    expect((await call(client, 'echo', { text: 'o' })).content).toEqual([{ type: 'text', text: 'echo: o' }]);

    await fetch(`${server.url}/__oauth/expire`, { method: 'POST' });
    const expired = await fetch(url, {
      method: 'POST',
      headers: { Authorization: `Bearer ${saved.tokens?.access_token}` },
    });
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe(
      `Bearer error="invalid_token", resource_metadata="${server.url}/.well-known/oauth-protected-resource/oauth/mcp", scope="mcp:tools"`,
    );
    const before = saved.tokens?.access_token;
    const second = new Client({ name: 'moat-test', version: '0' });
    clients.push(second);
    // The SDK refreshes on the 401: no second redirect.
    await second.connect(new StreamableHTTPClientTransport(url, { authProvider: provider }));
    expect(saved.tokens?.access_token).not.toBe(before);
    expect(codes).toHaveLength(1);
    const asked = (await getJson('/__oauth/log')) as { path: string }[];
    expect(asked.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/.well-known/oauth-authorization-server', '/register', '/authorize', '/token']),
    );
  });

  it('/no-cors/mcp: MCP without a single CORS header', async () => {
    const { client } = await connect('/no-cors/mcp');
    expect((await call(client, 'echo', { text: 'n' })).content).toEqual([{ type: 'text', text: 'echo: n' }]);
    const preflight = await fetch(`${server.url}/no-cors/mcp`, { method: 'OPTIONS', headers: { Origin: 'null' } });
    expect([...preflight.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
  });

  it('DELETE ends a session', async () => {
    const { transport } = await connect();
    const sessionId = transport.sessionId ?? '';
    await transport.terminateSession();
    const after = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { 'Mcp-Session-Id': sessionId, 'Content-Type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(after.status).toBe(404);
  });
});

describe('CORS and the log', () => {
  const initialize = {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '0' } },
  };

  it('answers a preflight and an initialize from an opaque origin with the CORS headers', async () => {
    const preflight = await fetch(`${server.url}/mcp`, { method: 'OPTIONS', headers: { Origin: 'null' } });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-headers')).toContain('mcp-session-id');
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: { Origin: 'null', 'Content-Type': 'application/json', Accept: 'application/json, text/event-stream' },
      body: JSON.stringify(initialize),
    });
    await response.body?.cancel();
    expect(response.status).toBe(200);
    expect(response.headers.get('mcp-session-id')).toEqual(expect.any(String));
    expect(
      Object.fromEntries([...response.headers].filter(([name]) => /^(access-control|cross-origin)/.test(name))),
    ).toEqual({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
      'access-control-allow-headers':
        'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
      'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
      'access-control-max-age': '600',
      'cross-origin-resource-policy': 'cross-origin',
    });
  });

  it('/__log records each request, with its origin and JSON-RPC method (a batch by its first)', async () => {
    const { client } = await connect();
    await client.listTools();
    const batch = [{ jsonrpc: '2.0', id: 7, method: 'ping' }, initialize];
    await fetch(`${server.url}/mcp`, { method: 'POST', headers: { Origin: 'null' }, body: JSON.stringify(batch) });
    // The client opens its GET stream without waiting for it: the log may get it last.
    await vi.waitFor(async () =>
      expect(await getJson('/__log')).toEqual(
        expect.arrayContaining([
          { method: 'POST', path: '/mcp', origin: null, jsonrpcMethod: 'initialize' },
          { method: 'POST', path: '/mcp', origin: null, jsonrpcMethod: 'notifications/initialized' },
          { method: 'GET', path: '/mcp', origin: null },
          { method: 'POST', path: '/mcp', origin: null, jsonrpcMethod: 'tools/list' },
          { method: 'POST', path: '/mcp', origin: 'null', jsonrpcMethod: 'ping' },
        ]),
      ),
    );
    expect(JSON.stringify(await getJson('/__log'))).not.toContain('/__');
  });
});
