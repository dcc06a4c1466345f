/**
 * The MCP client's worker: the official SDK's `Client` over Streamable HTTP, inside a sealed
 * frame whose Content-Security-Policy lets it connect to its server's origin and nowhere else.
 * It reaches the frame as text (`client-worker.ts?bundled`, the SDK inside it) and serves the
 * page over the port the frame hands it (protocol.ts): the sealed end's `answerPage` answers the
 * page's calls of `McpClientApi`'s methods, and nothing else. Nothing here trusts the server: what
 * it sends is checked by the SDK's schemas and goes to the page as data.
 */
import { extractWWWAuthenticateParams, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport, SseError } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { answerPage } from '../frame/sealed-end';
import type { McpAnswer, McpCallResult, McpClientApi, McpTool, McpToPage, WireFailure } from './protocol';

/** The SDK's own per-request limit, out of the way: the page's invoker times the calls. */
const NO_LIMIT = 2_147_483_647;
/** A server whose cursors never end is cut off here. */
const MAX_PAGES = 1_000;
/**
 * The most an answer may weigh (as JSON text) to reach the page: a hostile or broken server's
 * gigabyte stays in this frame's process (which may die of it: the page lives), not the page's.
 */
const MAX_ANSWER_CHARS = 32 * 1024 * 1024;

/** The most of a server's words (an error, a progress message) that reaches the page. */
const MAX_TEXT = 2_000;

function clip(text: string): string {
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT)}… (${text.length - MAX_TEXT} characters more)`;
}

/** The failure for an answer over MAX_ANSWER_CHARS, or undefined when it is within. */
function overweight(answer: unknown, what: string): WireFailure | undefined {
  const chars = JSON.stringify(answer)?.length ?? 0;
  if (chars <= MAX_ANSWER_CHARS) return undefined;
  const mb = (n: number) => `${(n / 1024 / 1024).toFixed(1)} MB`;
  return { kind: 'too-large', message: `${what} is ${mb(chars)} as JSON, over the limit of ${mb(MAX_ANSWER_CHARS)}` };
}

addEventListener('message', (event: MessageEvent) => {
  const port = event.ports[0];
  if (event.data === 'port' && port) serve(port);
});

function serve(port: MessagePort): void {
  let client: Client | undefined;
  let url = '';
  const http = new Http();
  const running = new Map<number, AbortController>();
  const tell = (message: McpToPage) => port.postMessage(message);
  // A call stopped is not answered: the page stopped waiting for it (a cancel), or it waits for
  // the connection's end (a close), whose reason is what its caller is told.
  const unanswered = () => new Promise<never>(() => {});
  const notConnected: McpAnswer<'failed'> = {
    t: 'failed',
    error: { kind: 'protocol', message: 'it is not connected' },
  };

  const api: McpClientApi = {
    async connect(to, headers) {
      url = to;
      try {
        http.headers = headers;
        client = await connect(new URL(url), http, () => tell({ t: 'changed' }));
        return { t: 'connected' };
      } catch (error) {
        return { t: 'failed', error: await failure(error, url, http) };
      }
    },
    setHeaders(headers) {
      http.headers = headers;
    },
    async listTools() {
      if (!client) return notConnected;
      try {
        const tools = await listTools(client);
        const tooLarge = overweight(tools, 'The tool list');
        return tooLarge ? { t: 'failed', error: tooLarge } : { t: 'tools', tools };
      } catch (error) {
        return { t: 'failed', error: await failure(error, url, http) };
      }
    },
    async callTool(call, name, args) {
      if (!client) return notConnected;
      const controller = new AbortController();
      running.set(call, controller);
      try {
        // An abort makes the SDK send `notifications/cancelled` for this request.
        const result = await client.callTool({ name, arguments: args }, undefined, {
          signal: controller.signal,
          timeout: NO_LIMIT,
          onprogress: ({ progress, total, message }) =>
            tell({
              t: 'progress',
              call,
              progress,
              ...(total === undefined ? {} : { total }),
              ...(message === undefined ? {} : { message: clip(message) }),
            }),
        });
        if (controller.signal.aborted) return unanswered();
        const tooLarge = overweight(result, `The result of ${name}`);
        return tooLarge ? { t: 'failed', error: tooLarge } : { t: 'result', result: result as McpCallResult };
      } catch (error) {
        if (controller.signal.aborted) return unanswered();
        return { t: 'failed', error: await failure(error, url, http) };
      } finally {
        running.delete(call);
      }
    },
    cancel(call, reason) {
      running.get(call)?.abort(reason);
    },
    async close() {
      for (const controller of running.values()) controller.abort('the MCP server was closed');
      // Ends the session (an HTTP DELETE) where the server keeps one.
      const transport = client?.transport;
      if (transport instanceof StreamableHTTPClientTransport) await transport.terminateSession().catch(() => {});
      await client?.close().catch(() => {});
      return { t: 'closed' };
    },
  };
  // Every method answers with data: only a request of no method of the API is refused.
  const answer = answerPage(
    api,
    (message) => port.postMessage(message),
    (error) => ({ $error: 1, name: 'TypeError', message: error instanceof Error ? error.message : String(error) }),
  );
  port.onmessage = ({ data }: MessageEvent<unknown>) => answer(data);
}

/**
 * Every request of the transports goes through `fetch`: it adds the page's headers (replaced when
 * the page has a fresh token) and keeps what the last 401 or 403 asked for (RFC 9728's
 * `resource_metadata`, the scope, `insufficient_scope`), which the page needs to sign in.
 */
class Http {
  headers: Record<string, string> = {};
  challenge: WireFailure['challenge'];

  readonly fetch = async (input: string | URL, init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(this.headers)) headers.set(name, value);
    const response = await fetch(input, { ...init, headers });
    if (response.status === 401 || response.status === 403) {
      const { resourceMetadataUrl, scope, error } = extractWWWAuthenticateParams(response);
      this.challenge = {
        ...(resourceMetadataUrl ? { resourceMetadataUrl: resourceMetadataUrl.href } : {}),
        ...(scope ? { scope } : {}),
        ...(error ? { error } : {}),
      };
    }
    return response;
  };
}

/**
 * A client over Streamable HTTP; a server that refuses its first POST with a 4xx other than 401
 * and 403 may be one of the older HTTP+SSE transport, which is tried next (the SDK's own advice).
 */
async function connect(url: URL, http: Http, changed: () => void): Promise<Client> {
  const client = () => {
    const made = new Client({ name: 'moat-sdk', version: '0.1.0' }, { capabilities: {} });
    made.setNotificationHandler(ToolListChangedNotificationSchema, async () => changed());
    return made;
  };
  const first = client();
  try {
    await first.connect(new StreamableHTTPClientTransport(url, { fetch: http.fetch }), { timeout: NO_LIMIT });
    return first;
  } catch (error) {
    const status = error instanceof StreamableHTTPError ? (error.code ?? 0) : 0;
    if (status < 400 || status >= 500 || status === 401 || status === 403) throw error;
  }
  const second = client();
  await second.connect(new SSEClientTransport(url, { fetch: http.fetch }), { timeout: NO_LIMIT });
  return second;
}

/** Every page of `tools/list`. */
async function listTools(client: Client): Promise<McpTool[]> {
  const tools: McpTool[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const answer = await client.listTools(cursor === undefined ? undefined : { cursor }, { timeout: NO_LIMIT });
    tools.push(...(answer.tools as McpTool[]));
    cursor = answer.nextCursor;
    if (cursor === undefined || seen.has(cursor)) return tools;
    seen.add(cursor);
  }
  return tools;
}

/**
 * What went wrong, as the page words it. A fetch that fails outright is a CORS refusal or no
 * server at all, which a browser does not tell apart: a no-cors request (whose answer nobody
 * reads) does, except where the page is cross-origin isolated: there a no-cors answer also needs a
 * Cross-Origin-Resource-Policy header, which a server without CORS headers seldom sends. It
 * reaches only the server's own origin, as every request from here does.
 */
async function failure(error: unknown, url: string, http: Http): Promise<WireFailure> {
  // The SDK's HTTP errors hold the whole body of the answer: the page gets its start.
  const message = clip(error instanceof Error ? error.message : String(error));
  // Not taken away once read: calls refused together each need it (every 401 or 403 sets it anew).
  const { challenge } = http;
  if (error instanceof UnauthorizedError) return { kind: 'unauthorized', message, status: 401, challenge };
  if (
    (error instanceof StreamableHTTPError || error instanceof SseError) &&
    error.code !== undefined &&
    error.code > 0
  ) {
    if (error.code === 401 || error.code === 403)
      return { kind: 'unauthorized', message, status: error.code, challenge };
    return { kind: 'http', message, status: error.code };
  }
  if (error instanceof McpError) return { kind: 'rpc', message, code: error.code };
  if (error instanceof TypeError) {
    const answered = await fetch(url, { method: 'HEAD', mode: 'no-cors' }).then(
      () => true,
      () => false,
    );
    return { kind: answered ? 'cors' : 'unreachable', message };
  }
  return { kind: 'protocol', message };
}
