/**
 * `mcpServer({ url })`: a remote MCP server's tools beside the pool's. The client is the official
 * SDK's, and it does not run on the page: it runs in a worker inside a sandboxed frame of its own
 * (an opaque origin, a process apart) whose Content-Security-Policy lets it connect to the
 * server's origin and nowhere else. So the server's answers never touch the page's origin,
 * cookies or storage, and the client (with whatever it depends on) can send nothing elsewhere.
 */
import { McpConnectionError } from '../errors/mcp-connection-error';
import { describeValue } from '../errors/moat-error';
import { checkHttpUrl } from '../errors/option-checks';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import { onceUntilFailure } from '../frame/once-until-failure';
import { cspOrigin } from '../frame/worker-csp';
import type { ToolOutcome, ToolSource, ToolSourceRuntime } from '../invoker/types';
import { isPlainObject } from '../json/json-value';
import type { ToolCall } from '../messages/types';
import type { ToolSpec } from '../providers/tool-spec';
import { startClientFrame } from './client-frame';
import { Connection } from './connection';
import { type AllowTools, type McpApproval, type McpSpecs, toOutcome, toSpecs } from './mcp-tools';
import type { WireFailure } from './protocol';
import type { McpAuthProvider } from './sign-in';
import { OAUTH_SERVER, SignIn, withChallenge } from './sign-in';

export type { AllowTools } from './mcp-tools';
export type { McpTool } from './protocol';

export interface McpServerOptions {
  /** The server's Streamable HTTP endpoint (`https://mcp.example.com/mcp`). */
  url: string | URL;
  /** Sent with every request (an `Authorization` header, say). The server must allow them by CORS. */
  headers?: Record<string, string>;
  /**
   * OAuth: signs in when the server answers 401, and sends the access token with every request
   * (refreshed when it expires). `browserOAuth()` makes one that keeps the tokens in IndexedDB;
   * any of the official SDK's `OAuthClientProvider`s fits too.
   */
  authProvider?: McpAuthProvider;
  /** Which of its tools to offer: names, or a test of each tool. Default: all. */
  allowTools?: AllowTools;
  /**
   * Which of its tools ask a person first: `true` all, `false` none, or these tools (by the
   * server's names) whatever the server says of them. Default: every tool but those the server
   * says only read (`readOnlyHint`) or destroy nothing (`destructiveHint: false`): hints from a
   * remote server, so name here the tools a person must approve.
   */
  needsApproval?: McpApproval;
  /** What to call it in messages. Default: its URL's host. */
  name?: string;
}

/** A remote MCP server, as a source of tools for `createAgent({ tools })` or a `ToolInvoker`. */
export interface McpServer extends ToolSource {
  /** Tools the server listed that cannot be offered (a schema no provider takes), each with why. */
  readonly skipped: readonly { name: string; reason: string }[];
  /** End the session and remove the client's frame. A later call connects again. */
  close(): Promise<void>;
}

/** Connecting, and listing the tools, take at most this long: a server that never answers fails. */
const ANSWER_MS = 15_000;

/**
 * @example
 * const github = mcpServer({ url: 'https://mcp.example.com/mcp', headers: { Authorization: `Bearer ${token}` } });
 * const agent = createAgent({ model, pool, tools: [github] });
 */
export function mcpServer(options: McpServerOptions): McpServer {
  if (!isPlainObject(options)) throw new TypeError(`Expected mcpServer options, got ${describeValue(options)}`);
  const what = "`url`, an MCP server's address,";
  const url = checkHttpUrl(options.url, what);
  // Its origin goes into the client frame's policy: checked now, not at the first call.
  try {
    cspOrigin(url.href);
  } catch {
    throw new TypeError(`Expected ${what} to be an http(s) URL, got ${describeValue(options.url)}`);
  }
  if (url.username || url.password)
    throw new TypeError('Put credentials for an MCP server in `headers`, not in its URL');
  const { authProvider } = options;
  if (
    authProvider !== undefined &&
    !(typeof authProvider === 'object' && authProvider !== null && typeof authProvider.tokens === 'function')
  )
    throw new TypeError(`Expected \`authProvider\` to be an OAuth client provider, got ${describeValue(authProvider)}`);
  const headers = options.headers ?? {};
  if (!isPlainObject(headers) || Object.values(headers).some((v) => typeof v !== 'string'))
    throw new TypeError(`Expected \`headers\` to be an object of strings, got ${describeValue(options.headers)}`);
  try {
    new Headers(headers as Record<string, string>);
  } catch (error) {
    throw new TypeError(`Expected \`headers\` to be valid HTTP headers: ${(error as Error).message}`);
  }
  if (authProvider && Object.keys(headers).some((name) => name.toLowerCase() === 'authorization'))
    throw new TypeError('Give an MCP server an `Authorization` header or an `authProvider`, not both');
  // A browserOAuth() provider keeps the tokens of one server: another's must not get them.
  const tokensOf = (authProvider as { [OAUTH_SERVER]?: string } | undefined)?.[OAUTH_SERVER];
  if (tokensOf !== undefined && tokensOf !== url.href)
    throw new TypeError(`This authProvider keeps the tokens of ${tokensOf}, not of ${url.href}`);
  const { allowTools } = options;
  if (allowTools !== undefined && typeof allowTools !== 'function' && !Array.isArray(allowTools))
    throw new TypeError(
      `Expected \`allowTools\` to be a list of names or a function, got ${describeValue(allowTools)}`,
    );
  const { needsApproval } = options;
  if (
    needsApproval !== undefined &&
    typeof needsApproval !== 'boolean' &&
    !(Array.isArray(needsApproval) && needsApproval.every((n) => typeof n === 'string'))
  )
    throw new TypeError(
      `Expected \`needsApproval\` to be true, false or a list of tool names, got ${describeValue(needsApproval)}`,
    );
  return new McpClient(
    url,
    headers as Record<string, string>,
    allowTools,
    options.name ?? url.host,
    authProvider,
    needsApproval,
  );
}

class McpClient implements McpServer {
  readonly kind = 'tool-source';
  readonly name: string;
  readonly #url: URL;
  readonly #headers: Record<string, string>;
  readonly #allow: AllowTools | undefined;
  readonly #approval: McpApproval | undefined;
  readonly #signIn: SignIn | undefined;
  /** How many times close() has run: a call that was signing in meanwhile does not go on. */
  #closes = 0;
  /** Every tool name given so far → the server's name (see toSpecs). */
  readonly #given = new Map<string, string>();
  readonly #listeners = new Set<() => void>();
  /** The connection, made when first needed; again after it failed or ended. */
  readonly #connection = onceUntilFailure(() => this.#open());
  /** The tools as last listed; again after a failure or a change. */
  readonly #listing = onceUntilFailure(() => this.#list());
  skipped: McpSpecs['skipped'] = [];

  constructor(
    url: URL,
    headers: Record<string, string>,
    allow: AllowTools | undefined,
    name: string,
    auth: McpAuthProvider | undefined,
    approval: McpApproval | undefined,
  ) {
    this.#url = url;
    this.#headers = headers;
    this.#allow = allow;
    this.#approval = approval;
    this.name = `MCP server ${name}`;
    this.#signIn = auth && new SignIn(url, auth);
  }

  async specs(): Promise<ToolSpec[]> {
    return (await this.#signedIn(() => this.#listing())).specs;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  call(call: ToolCall, runtime: ToolSourceRuntime): Promise<ToolOutcome> {
    // A call the server refused (401) did not run: it runs again once signed in.
    return this.#signedIn(() => this.#call(call, runtime));
  }

  async #call(call: ToolCall, runtime: ToolSourceRuntime): Promise<ToolOutcome> {
    const { names } = await this.#listing();
    const name = names.get(call.name);
    if (name === undefined)
      throw new ToolNotFoundError({ toolName: call.name, toolCallId: call.id, available: [...names.keys()] });
    const connection = await this.#connection();
    const answer = await connection.call(name, call.args, {
      signal: runtime.signal,
      progress: runtime.emit,
      failure: (failure) => {
        // The session is gone (the server restarted, say): the next use starts a new one.
        if (failure.kind === 'http' && failure.status === 404)
          queueMicrotask(() => connection.end(this.#failure(failure)));
        return failure.kind === 'rpc' || failure.kind === 'too-large'
          ? new ToolExecutionError({ toolName: call.name, toolCallId: call.id, cause: new Error(failure.message) })
          : this.#failure(failure);
      },
    });
    return toOutcome(answer.result);
  }

  async close(): Promise<void> {
    this.#closes++;
    const connecting = this.#connection.current;
    this.#connection.forget();
    this.#listing.forget();
    const connection = await connecting?.catch(() => undefined);
    if (!connection) return;
    await connection.close();
    connection.end(
      new McpConnectionError({
        url: this.#url.href,
        reason: 'closed',
        message: `The MCP server ${this.#url.href} was closed`,
      }),
    );
  }

  async #list(): Promise<McpSpecs> {
    const connection = await this.#connection();
    const tools = await connection.list({ timeoutMs: ANSWER_MS, failure: (failure) => this.#failure(failure) });
    const made = toSpecs(tools, this.#allow, this.#given, this.#approval);
    this.skipped = made.skipped;
    return made;
  }

  async #open(): Promise<Connection> {
    if (typeof document === 'undefined')
      throw new TypeError("mcpServer needs a page: its client runs in a sandboxed frame (an iframe) of the page's");
    const { frame, worker, port } = await startClientFrame(this.#url.origin, `Moat MCP client (${this.name})`);
    const connection = new Connection(port, frame);
    const crashed = (reason: string) =>
      connection.end(
        new McpConnectionError({
          url: this.#url.href,
          reason: 'crashed',
          message: `The MCP client for ${this.#url.href} stopped: ${reason}`,
        }),
      );
    worker.onBroken = crashed;
    frame.onDeath = crashed;
    connection.onChanged = () => {
      this.#listing.forget();
      for (const listener of this.#listeners) listener();
    };
    // Once it has ended, the next use connects again.
    connection.onEnded = () => {
      const current = this.#connection.current;
      void current?.then(
        (c) => {
          if (c !== connection || this.#connection.current !== current) return;
          this.#connection.forget(current);
          this.#listing.forget();
        },
        () => {},
      );
    };
    await connection.connect(this.#url.href, await this.#headersNow(), {
      timeoutMs: ANSWER_MS,
      failure: (failure) => {
        const error = this.#failure(failure);
        queueMicrotask(() => connection.end(error));
        return error;
      },
    });
    return connection;
  }

  /** The headers for the next requests: the options', and the access token if there is one. */
  async #headersNow(): Promise<Record<string, string>> {
    const token = await this.#signIn?.token();
    return token === undefined ? this.#headers : { ...this.#headers, Authorization: `Bearer ${token}` };
  }

  /**
   * `attempt`, and once more after signing in, if there is an authProvider and the server refused
   * it (401, or 403 `insufficient_scope`: see sign-in.ts). A refused request did not run.
   */
  async #signedIn<T>(attempt: () => Promise<T>): Promise<T> {
    const signIn = this.#signIn;
    if (!signIn) return attempt();
    const used = await signIn.token();
    const closes = this.#closes;
    try {
      return await attempt();
    } catch (error) {
      if (!(await signIn.after(error, used))) throw error;
      if (this.#closes !== closes)
        throw new McpConnectionError({
          url: this.#url.href,
          reason: 'closed',
          message: `The MCP server ${this.#url.href} was closed while signing in`,
        });
      const connection = await this.#connection.current?.catch(() => undefined);
      connection?.setHeaders(await this.#headersNow());
      return attempt();
    }
  }

  #failure(failure: WireFailure): McpConnectionError {
    const url = this.#url.href;
    const reason = failure.kind === 'rpc' || failure.kind === 'too-large' ? 'protocol' : failure.kind;
    const status = failure.status;
    const sent = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];
    sent.push(...Object.keys(this.#headers).map((h) => h.toLowerCase()));
    if (this.#signIn) sent.push('authorization');
    const exposed = `mcp-session-id, mcp-protocol-version${this.#signIn ? ', www-authenticate' : ''}`;
    const corsNeeds = `the server must answer OPTIONS preflights and send \`Access-Control-Allow-Origin: *\`, \`Access-Control-Allow-Headers: ${sent.join(', ')}\` (by name: \`*\` does not cover Authorization) and \`Access-Control-Expose-Headers: ${exposed}\``;
    const message = {
      cors: `The MCP server at ${url} answered, but its CORS headers keep its answer from the client. The client runs sealed, at an opaque origin (its requests say \`Origin: null\`): ${corsNeeds}`,
      // There, a server without CORS headers looks like none (see client-worker.ts).
      unreachable: crossOriginIsolated
        ? `Could not read an answer from the MCP server at ${url}: nothing answers there, or it sends no CORS headers (on a cross-origin-isolated page the two look the same). If it runs: the client is sealed, at an opaque origin (its requests say \`Origin: null\`), so ${corsNeeds}`
        : `Could not reach the MCP server at ${url}: nothing answered (is it running, and is the URL right?)`,
      unauthorized: this.#signIn
        ? `The MCP server at ${url} refused the client (HTTP ${status})`
        : `The MCP server at ${url} refused the client (HTTP ${status}): give it credentials in \`headers\` (an Authorization header, say), or an \`authProvider\` for OAuth`,
      http: `The MCP server at ${url} answered HTTP ${status}: ${failure.message}`,
      protocol:
        failure.kind === 'too-large'
          ? `The MCP server at ${url} sent too much: ${failure.message}`
          : `The MCP server at ${url} did not answer as an MCP server: ${failure.message}`,
    }[reason];
    const error = new McpConnectionError({ url, reason, message, ...(status === undefined ? {} : { status }) });
    return withChallenge(error, failure.challenge);
  }
}
