/**
 * A remote MCP server's tools through an agent: the test server (test/mcp-server, the official
 * SDK's server) over Streamable HTTP, the client sealed in a frame of its own.
 */
import { afterEach, beforeEach, describe, expect, inject, it } from 'vitest';
import { probeTag } from '../../test/probe-hits';
import { createAgent } from '../agent/agent';
import type { AgentEvent } from '../agent/types';
import { McpConnectionError } from '../errors/mcp-connection-error';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { SandboxedFrame } from '../frame/sandboxed-frame';
import { ToolInvoker } from '../invoker/tool-invoker';
import type { ToolCall, ToolMessage } from '../messages/types';
import { scriptedModel } from '../models/scripted-model';
import { type McpServer, mcpServer } from './mcp-server';

const base = inject('mcpServerUrl');
const servers: McpServer[] = [];
const open = (path = '/mcp', options: Omit<Parameters<typeof mcpServer>[0], 'url'> = {}) => {
  const server = mcpServer({ url: `${base}${path}`, ...options });
  servers.push(server);
  return server;
};
const log = async () =>
  (await (await fetch(`${base}/__log`)).json()) as {
    method: string;
    path: string;
    origin?: string;
    jsonrpcMethod?: string;
  }[];
const cancelled = async () => (await (await fetch(`${base}/__cancelled`)).json()) as { tag: string; reason: string }[];

/** One turn of calls, then an answer that quotes the results. */
function callsThenAnswer(calls: { name: string; args: Record<string, unknown> }[]) {
  return scriptedModel((messages) => {
    const last = messages.at(-1);
    if (last?.role !== 'tool') return { toolCalls: calls };
    const results = messages.filter((m): m is ToolMessage => m.role === 'tool');
    return {
      text: results.map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join(' | '),
    };
  });
}

async function collect(events: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const all: AgentEvent[] = [];
  for await (const event of events) all.push(event);
  return all;
}

const toolMessages = (events: AgentEvent[]) =>
  events.flatMap((e) => (e.type === 'finish' ? e.messages.filter((m): m is ToolMessage => m.role === 'tool') : []));

beforeEach(async () => {
  await fetch(`${base}/__reset`, { method: 'POST' });
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe(`mcpServer (cross-origin isolated: ${crossOriginIsolated})`, () => {
  it("lists every page of the server's tools; a tool asks for approval unless its annotations say it is safe", async () => {
    const agent = createAgent({ model: scriptedModel(() => ({ text: '' })), tools: [open()] });
    const tools = await agent.tools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      ['add', 'add_tool', 'count', 'delete_file', 'echo', 'fail', 'image', 'resource', 'slow'].sort(),
    );
    const approval = Object.fromEntries(tools.map((t) => [t.name, t.needsApproval === true]));
    expect(approval).toMatchObject({ echo: false, delete_file: true, add: true });
    expect(tools.find((t) => t.name === 'add')?.outputSchema).toMatchObject({ properties: { sum: expect.anything() } });
  });

  it('calls tools through the agent: text, structured content, an image, an embedded resource, a tool error', async () => {
    const model = callsThenAnswer([
      { name: 'echo', args: { text: 'hi' } },
      { name: 'add', args: { a: 2, b: 3 } },
      { name: 'image', args: {} },
      { name: 'resource', args: {} },
      { name: 'fail', args: {} },
    ]);
    const agent = createAgent({ model, tools: [open()], approve: () => true });
    const events = await collect(agent.stream('go'));
    const [echo, add, image, resource, fail] = toolMessages(events);
    expect(echo).toMatchObject({ content: 'echo: hi', status: 'success' });
    // Its text for the model; its structured content beside it.
    expect(add).toMatchObject({ content: '5', artifact: { sum: 5 } });
    expect(image?.content).toEqual([
      { type: 'text', text: 'a red dot' },
      { type: 'image', data: expect.stringMatching(/^iVBORw0KGgo/), mediaType: 'image/png' },
    ]);
    expect(resource?.content).toContain('[resource test://notes/1 (text/plain)]\nnote one');
    expect(fail).toMatchObject({ status: 'error', content: expect.stringContaining('it broke on purpose') });
  });

  it("streams the server's progress notifications as tool-output-delta events", async () => {
    const agent = createAgent({
      model: callsThenAnswer([{ name: 'count', args: { to: 4, delayMs: 5 } }]),
      tools: [open()],
      approve: () => true,
    });
    const events = await collect(agent.stream('count'));
    const deltas = events.flatMap((e) => (e.type === 'tool-output-delta' ? [e.delta] : []));
    expect(deltas).toEqual([1, 2, 3, 4].map((i) => ({ progress: i, total: 4, message: `step ${i}` })));
    expect(toolMessages(events)[0]?.content).toBe('counted to 4');
  });

  it('cancels a call on the server (notifications/cancelled) when the run is aborted, and when its time runs out', async () => {
    const server = open();
    const invoker = new ToolInvoker({ tools: [server], timeoutMs: 300 });
    const controller = new AbortController();
    const call: ToolCall = { id: 'c1', name: 'slow', args: { ms: 10_000, tag: 'aborted' } };
    const running = invoker.run([call], { signal: controller.signal });
    await expect.poll(async () => (await log()).some((r) => r.jsonrpcMethod === 'tools/call')).toBe(true);
    controller.abort(new Error('the person stopped it'));
    await expect(running).rejects.toThrow('the person stopped it');
    await expect
      .poll(cancelled)
      .toContainEqual({ tag: 'aborted', reason: expect.stringContaining('the person stopped it') });

    const { messages } = await invoker.run([{ id: 'c2', name: 'slow', args: { ms: 10_000, tag: 'late' } }]);
    expect(messages[0]).toMatchObject({ status: 'error', content: expect.stringMatching(/timed out after 300 ms/) });
    await expect.poll(cancelled).toContainEqual({ tag: 'late', reason: expect.stringContaining('timed out') });

    // With `onError: 'throw'`, the typed error itself.
    const throwing = new ToolInvoker({ tools: [server], timeoutMs: 300, onError: 'throw' });
    await expect(throwing.run([{ id: 'c3', name: 'slow', args: { ms: 10_000, tag: 'thrown' } }])).rejects.toSatisfy(
      (error) => ToolTimeoutError.isInstance(error) && error.timeoutMs === 300,
    );
  });

  it('follows notifications/tools/list_changed: the next step offers the new tool', async () => {
    const server = open();
    const agent = createAgent({
      model: callsThenAnswer([{ name: 'add_tool', args: { name: 'fresh' } }]),
      tools: [server],
      approve: () => true,
    });
    expect((await agent.tools()).map((t) => t.name)).not.toContain('fresh');
    const changed = new Promise<void>((resolve) => server.onChange(resolve));
    await agent.run('add one');
    await changed;
    expect((await agent.tools()).map((t) => t.name)).toContain('fresh');
  });

  it('waits for approval before a destructive tool; a read-only one runs at once', async () => {
    const model = callsThenAnswer([
      { name: 'echo', args: { text: 'safe' } },
      { name: 'delete_file', args: { path: '/etc/hosts' } },
    ]);
    const agent = createAgent({ model, tools: [open()] });
    const events = await collect(agent.stream('clean up'));
    expect(
      events.filter((e) => e.type === 'approval-request').map((e) => e.type === 'approval-request' && e.toolCall.name),
    ).toEqual(['delete_file']);
    expect(events.flatMap((e) => (e.type === 'tool-started' ? [e.name] : []))).toEqual(['echo']);
    expect((await log()).some((r) => r.jsonrpcMethod === 'tools/call' && r.path === '/mcp')).toBe(true);
    const finish = events.at(-1);
    const pending = finish?.type === 'finish' ? (finish.pendingApprovals ?? []) : [];
    const result = await agent.run(
      { approvals: { [pending[0]?.id ?? '']: true } },
      { threadId: finish?.type === 'finish' ? finish.threadId : '' },
    );
    expect(result.text).toContain('deleted /etc/hosts');
  });

  it('explains a CORS refusal by the headers the server must send, and tells it from no server at all', async () => {
    const refused = open('/no-cors/mcp', { headers: { Authorization: 'Bearer x' } });
    const error = await refused.specs().catch((e: unknown) => e);
    expect(McpConnectionError.isInstance(error)).toBe(true);
    // A cross-origin-isolated page cannot tell a server without CORS from none (see WireFailure):
    // the message explains CORS either way.
    expect(error).toMatchObject({ reason: crossOriginIsolated ? 'unreachable' : 'cors' });
    expect((error as Error).message).toMatch(/Access-Control-Allow-Origin: \*/);
    expect((error as Error).message).toMatch(/Access-Control-Allow-Headers: .*authorization/);
    expect((error as Error).message).toMatch(/Origin: null/);

    // Port 9 (discard): nobody listens there.
    const nobody = mcpServer({ url: 'http://127.0.0.1:9/mcp' });
    servers.push(nobody);
    const none = await nobody.specs().catch((e: unknown) => e);
    expect(none).toMatchObject({ name: 'McpConnectionError', reason: 'unreachable' });
    if (!crossOriginIsolated) expect((none as Error).message).toMatch(/nothing answered \(is it running/);
  });

  it('ends the session on close: what waited fails as closed, and the next use connects again', async () => {
    const server = open();
    const invoker = new ToolInvoker({ tools: [server], onError: 'throw' });
    await server.specs();
    const waiting = invoker.run([{ id: 'w', name: 'slow', args: { ms: 10_000, tag: 'closed' } }]);
    await expect.poll(async () => (await log()).some((r) => r.jsonrpcMethod === 'tools/call')).toBe(true);
    await server.close();
    await expect(waiting).rejects.toMatchObject({ name: 'McpConnectionError', reason: 'closed' });
    expect((await log()).some((r) => r.method === 'DELETE' && r.path === '/mcp')).toBe(true);
    const { messages } = await invoker.run([{ id: 'e', name: 'echo', args: { text: 'again' } }]);
    expect(messages[0]?.content).toBe('echo: again');
  });

  it('says what an HTTP error, a bad option or a server that is not MCP is', async () => {
    await expect(open('/nothing/here').specs()).rejects.toMatchObject({ reason: 'http', status: 404 });
    expect(() => mcpServer({ url: 'https://*.example.com/mcp' })).toThrow(TypeError);
    expect(() => mcpServer({ url: 'https://user:pw@mcp.example.com/mcp' })).toThrow(/credentials .* in `headers`/);
    expect(() => mcpServer({ url: 'https://mcp.example.com/mcp', headers: { 'bad header': 'x' } })).toThrow(
      /valid HTTP headers/,
    );
    expect(() => mcpServer({ url: 'ftp://mcp.example.com/' })).toThrow(/http\(s\) URL/);
  });

  it('keeps an answer over 32 MB from the page: the call fails, readable by the model, and the next call works', async () => {
    const server = open();
    const invoker = new ToolInvoker({ tools: [server] });
    const huge = 'x'.repeat(33 * 1024 * 1024);
    const { messages } = await invoker.run([{ id: 'big', name: 'echo', args: { text: huge } }]);
    expect(messages[0]).toMatchObject({
      status: 'error',
      content: expect.stringMatching(/The result of echo is 33\.0 MB as JSON, over the limit of 32\.0 MB/),
    });
    const { messages: after } = await invoker.run([{ id: 'small', name: 'echo', args: { text: 'ok' } }]);
    expect(after[0]?.content).toBe('echo: ok');
  });

  it("keeps a server's long error text from the page: its start, and how much more there was", async () => {
    const error = (await open('/huge-error/mcp')
      .specs()
      .catch((e: unknown) => e)) as McpConnectionError;
    expect(error).toMatchObject({ reason: 'http', status: 500 });
    expect(error.message.length).toBeLessThan(2_500);
    expect(error.message).toMatch(/characters more\)$/);
  });

  it('sends the headers it is given; a refusal without them says so', async () => {
    await expect(open('/auth/mcp').specs()).rejects.toMatchObject({
      reason: 'unauthorized',
      status: 401,
      message: expect.stringMatching(/refused the client \(HTTP 401\): give it credentials in `headers`/),
    });
    const tools = await open('/auth/mcp', { headers: { Authorization: 'Bearer test-token' } }).specs();
    expect(tools.map((t) => t.name)).toContain('echo');
  });

  it('works with a stateless server, and offers only the tools allowed', async () => {
    const server = open('/stateless/mcp', { allowTools: ['echo', 'add'] });
    expect((await server.specs()).map((t) => t.name).sort()).toEqual(['add', 'echo']);
    const invoker = new ToolInvoker({ tools: [server] });
    const { messages } = await invoker.run([{ id: 'e', name: 'echo', args: { text: 'stateless' } }]);
    expect(messages[0]?.content).toBe('echo: stateless');
    // Interceptors wrap its calls as they wrap a worker's.
    const rewritten = new ToolInvoker({
      tools: [server],
      interceptors: [
        (request, next) => next(request.override({ toolCall: { ...request.toolCall, args: { text: 'changed' } } })),
      ],
    });
    expect((await rewritten.run([{ id: 'i', name: 'echo', args: { text: 'asked' } }])).messages[0]?.content).toBe(
      'echo: changed',
    );
    await expect(invoker.run([{ id: 'd', name: 'delete_file', args: { path: 'x' } }])).resolves.toMatchObject({
      messages: [{ status: 'error', content: expect.stringMatching(/unknown tool 'delete_file'/) }],
    });
  });
});

describe('an older HTTP+SSE server', () => {
  it('is tried when the Streamable HTTP POST is refused: tools listed, called, progress streamed', async () => {
    const server = open('/sse');
    expect((await server.specs()).map((t) => t.name)).toContain('count');
    const agent = createAgent({
      model: callsThenAnswer([{ name: 'count', args: { to: 2, delayMs: 500 } }]),
      tools: [server],
      approve: () => true,
    });
    const events = await collect(agent.stream('count'));
    // Progress is best effort in MCP: the SDK drops a progress message read in the same chunk as
    // the result (typescript-sdk#2580), which a loaded machine makes of two writes 5 ms apart. Step 1
    // goes half a second before the result; step 2 may be lost that way.
    expect(events.flatMap((e) => (e.type === 'tool-output-delta' ? [e.delta] : []))).toContainEqual({
      progress: 1,
      total: 2,
      message: 'step 1',
    });
    expect(toolMessages(events)[0]?.content).toBe('counted to 2');
    const paths = (await log()).map((r) => `${r.method} ${r.path}`);
    expect(paths).toEqual(expect.arrayContaining(['POST /sse', 'GET /sse', 'POST /sse/messages']));
  });
});

describe('the MCP client is sealed', () => {
  it("talks from an opaque origin, and its frame's policy lets it reach the server and nothing else", async () => {
    const server = open();
    await server.specs();
    // Every request came from the sealed frame: an opaque origin, no cookie or storage of the app's.
    const origins = new Set((await log()).map((r) => r.origin));
    expect([...origins]).toEqual(['null']);
    const iframe = [...document.querySelectorAll('iframe')].find((f) => f.title.startsWith('Moat MCP client'));
    const csp = /content="([^"]*)"/.exec(iframe?.srcdoc ?? '')?.[1]?.replace(/&amp;/g, '&') ?? '';
    expect(csp).toContain(`connect-src ${new URL(base).origin};`);

    // Code under that policy (what the client runs under) reaches the server, and nothing else.
    const probe = probeTag();
    const frame = new SandboxedFrame({ csp, title: 'probe' });
    const channel = new MessageChannel();
    const answer = new Promise<unknown>((resolve) => {
      channel.port1.onmessage = (e) => resolve(e.data);
    });
    const source = `addEventListener('message', async (e) => {
      if (e.data !== 'port') return;
      const port = e.ports[0];
      const tries = {};
      const attempt = async (name, run) => { try { await run(); tries[name] = 'reached'; } catch { tries[name] = 'blocked'; } };
      await attempt('server', () => fetch(${JSON.stringify(`${base}/__log`)}));
      await attempt('fetch', () => fetch(${JSON.stringify(probe.url('/fetch'))}));
      await attempt('import', () => import(${JSON.stringify(probe.url('/x.js'))}));
      await attempt('websocket', () => new Promise((ok, no) => { const ws = new WebSocket(${JSON.stringify(probe.url('/ws').replace('http', 'ws'))}); ws.onopen = ok; ws.onerror = no; }));
      await attempt('eventsource', () => new Promise((ok, no) => { const es = new EventSource(${JSON.stringify(probe.url('/events'))}); es.onmessage = ok; es.onerror = no; }));
      port.postMessage(tries);
    });`;
    // Started as the client is: a module graph, from the frame's data: loader.
    frame.load({ modules: [{ url: 'probe', parts: [source] }], entry: 0 });
    frame.spawn(channel.port2);
    try {
      expect(await answer).toEqual({
        server: 'reached',
        fetch: 'blocked',
        import: 'blocked',
        websocket: 'blocked',
        eventsource: 'blocked',
      });
      expect(await probe.hits()).toEqual([]);
    } finally {
      frame.close();
    }
  });
});
