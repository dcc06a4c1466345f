/**
 * `mcpServer({ url })`: a remote MCP server's tools beside the pool's. The client is the official
 * SDK's, and it does not run on the page: it runs in a worker inside a sandboxed frame of its own
 * (an opaque origin, a process apart) whose Content-Security-Policy lets it connect to the
 * server's origin and nowhere else. So the server's answers never touch the page's origin,
 * cookies or storage, and the client (with whatever it depends on) can send nothing elsewhere.
 */
import { McpConnectionError } from '../errors/mcp-connection-error';
import { describeValue } from '../errors/moat-error';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import { SandboxedFrame } from '../frame/sandboxed-frame';
import type { ToolOutcome, ToolSource, ToolSourceRuntime } from '../invoker/types';
import { isPlainObject } from '../json/json-value';
import type { ToolCall } from '../messages/types';
import { sealedFrameCsp } from '../pool/framed-worker';
import type { ToolSpec } from '../providers/tool-spec';
import { type AllowTools, type McpSpecs, toOutcome, toSpecs } from './mcp-tools';
import type { FromWorker, McpCallResult, McpTool, ToWorker, WireFailure } from './protocol';

export type { AllowTools } from './mcp-tools';
export type { McpTool } from './protocol';

export interface McpServerOptions {
  /** The server's Streamable HTTP endpoint (`https://mcp.example.com/mcp`). */
  url: string | URL;
  /** Sent with every request (an `Authorization` header, say). The server must allow them by CORS. */
  headers?: Record<string, string>;
  /** Which of its tools to offer: names, or a test of each tool. Default: all. */
  allowTools?: AllowTools;
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

/** How long a frame's process may go silent before it counts as dead (see SandboxedFrame.watch). */
const FRAME_DEAD_MS = 5_000;

/**
 * @example
 * const github = mcpServer({ url: 'https://mcp.example.com/mcp', headers: { Authorization: `Bearer ${token}` } });
 * const agent = createAgent({ model, pool, tools: [github] });
 */
export function mcpServer(options: McpServerOptions): McpServer {
  if (!isPlainObject(options)) throw new TypeError(`Expected mcpServer options, got ${describeValue(options)}`);
  let url: URL;
  try {
    url = new URL(options.url);
  } catch {
    throw new TypeError(`Expected \`url\` to be an MCP server's http(s) URL, got ${describeValue(options.url)}`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new TypeError(`Expected \`url\` to be an MCP server's http(s) URL, got ${describeValue(options.url)}`);
  const headers = options.headers ?? {};
  if (!isPlainObject(headers) || Object.values(headers).some((v) => typeof v !== 'string'))
    throw new TypeError(`Expected \`headers\` to be an object of strings, got ${describeValue(options.headers)}`);
  const { allowTools } = options;
  if (allowTools !== undefined && typeof allowTools !== 'function' && !Array.isArray(allowTools))
    throw new TypeError(
      `Expected \`allowTools\` to be a list of names or a function, got ${describeValue(allowTools)}`,
    );
  return new McpClient(url, headers as Record<string, string>, allowTools, options.name ?? url.host);
}

interface Waiting {
  resolve(value: McpTool[] | McpCallResult): void;
  reject(error: Error): void;
  progress?: (delta: unknown) => void;
}

interface Connection {
  port: MessagePort;
  frame: SandboxedFrame;
}

class McpClient implements McpServer {
  readonly kind = 'tool-source';
  readonly name: string;
  readonly #url: URL;
  readonly #headers: Record<string, string>;
  readonly #allow: AllowTools | undefined;
  readonly #listeners = new Set<() => void>();
  readonly #waiting = new Map<number, Waiting>();
  #connection: Promise<Connection> | undefined;
  #listing: Promise<McpSpecs> | undefined;
  #nextId = 1;

  constructor(url: URL, headers: Record<string, string>, allow: AllowTools | undefined, name: string) {
    this.#url = url;
    this.#headers = headers;
    this.#allow = allow;
    this.name = `MCP server ${name}`;
  }

  skipped: McpSpecs['skipped'] = [];

  async specs(): Promise<ToolSpec[]> {
    return (await this.#list()).specs;
  }

  onChange(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async call(call: ToolCall, runtime: ToolSourceRuntime): Promise<ToolOutcome> {
    const { names } = await this.#list();
    const name = names.get(call.name);
    if (name === undefined)
      throw new ToolNotFoundError({ toolName: call.name, toolCallId: call.id, available: [...names.keys()] });
    runtime.signal.throwIfAborted();
    const { port } = await this.#connect();
    const id = this.#nextId++;
    const result = new Promise<McpCallResult>((resolve, reject) => {
      const onAbort = () => {
        this.#waiting.delete(id);
        const reason = runtime.signal.reason;
        port.postMessage({ t: 'cancel', id, reason: String(reason?.message ?? reason) } satisfies ToWorker);
        reject(reason);
      };
      runtime.signal.addEventListener('abort', onAbort, { once: true });
      const done = () => runtime.signal.removeEventListener('abort', onAbort);
      this.#waiting.set(id, {
        resolve: (value) => {
          done();
          resolve(value as McpCallResult);
        },
        reject: (error) => {
          done();
          reject(
            McpConnectionError.isInstance(error)
              ? error
              : new ToolExecutionError({ toolName: call.name, toolCallId: call.id, cause: error }),
          );
        },
        progress: runtime.emit,
      });
    });
    port.postMessage({ t: 'call', id, name, args: call.args } satisfies ToWorker);
    return toOutcome(await result);
  }

  async close(): Promise<void> {
    const connection = this.#connection;
    this.#connection = undefined;
    this.#listing = undefined;
    const made = await connection?.catch(() => undefined);
    if (!made) return;
    const closed = new Promise<void>((resolve) => {
      made.port.addEventListener('message', (e) => (e.data as FromWorker).t === 'closed' && resolve());
      setTimeout(resolve, 2_000);
    });
    made.port.postMessage({ t: 'close' } satisfies ToWorker);
    await closed;
    this.#end(
      made,
      new McpConnectionError({ url: this.#url.href, reason: 'crashed', message: 'The MCP server was closed' }),
    );
  }

  #list(): Promise<McpSpecs> {
    if (!this.#listing) {
      const listing = this.#connect().then(({ port }) => {
        const id = this.#nextId++;
        return new Promise<McpTool[]>((resolve, reject) => {
          this.#waiting.set(id, { resolve: (v) => resolve(v as McpTool[]), reject });
          port.postMessage({ t: 'list', id } satisfies ToWorker);
        });
      });
      this.#listing = listing.then((tools) => {
        const made = toSpecs(tools, this.#allow);
        this.skipped = made.skipped;
        return made;
      });
      // A failure is said to whoever waits; the next use asks again.
      this.#listing.catch(() => {
        this.#listing = undefined;
      });
    }
    return this.#listing;
  }

  #connect(): Promise<Connection> {
    if (!this.#connection) {
      const connecting = this.#open();
      this.#connection = connecting;
      connecting.catch(() => {
        if (this.#connection === connecting) this.#connection = undefined;
      });
    }
    return this.#connection;
  }

  async #open(): Promise<Connection> {
    if (typeof document === 'undefined')
      throw new TypeError("mcpServer needs a page: its client runs in a sandboxed frame (an iframe) of the page's");
    const frame = new SandboxedFrame({
      csp: sealedFrameCsp([this.#url.origin]),
      title: `Moat MCP client (${this.name})`,
    });
    frame.watch(true, FRAME_DEAD_MS);
    const { default: text } = await import('./client-worker.ts?bundled');
    frame.load({ modules: [{ url: 'moat:mcp-client', parts: [text] }], entry: 0 });
    const channel = new MessageChannel();
    const connection = { port: channel.port1, frame };
    const worker = frame.spawn({ module: true, announces: true }, channel.port2);
    const crashed = (reason: string) =>
      this.#end(
        connection,
        new McpConnectionError({
          url: this.#url.href,
          reason: 'crashed',
          message: `The MCP client for ${this.#url.href} stopped: ${reason}`,
        }),
      );
    worker.onBroken = crashed;
    frame.onDeath = crashed;
    return new Promise<Connection>((resolve, reject) => {
      channel.port1.onmessage = ({ data }: MessageEvent<FromWorker>) => {
        if (data.t === 'connected') resolve(connection);
        else if (data.t === 'failed' && data.id === undefined) {
          const error = this.#failure(data.error);
          reject(error);
          this.#end(connection, error);
        } else this.#answer(data);
      };
      this.#fail = reject;
      channel.port1.postMessage({ t: 'connect', url: this.#url.href, headers: this.#headers } satisfies ToWorker);
    });
  }

  /** Rejects the connection under way (when its frame dies before it answers). */
  #fail: (error: Error) => void = () => {};

  #answer(data: FromWorker): void {
    if (data.t === 'changed') {
      this.#listing = undefined;
      for (const listener of this.#listeners) listener();
      return;
    }
    if (!('id' in data) || data.id === undefined) return;
    const waiting = this.#waiting.get(data.id);
    if (!waiting) return;
    if (data.t === 'progress') {
      const { progress, total, message } = data;
      waiting.progress?.({ progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) });
      return;
    }
    this.#waiting.delete(data.id);
    if (data.t === 'tools') waiting.resolve(data.tools);
    else if (data.t === 'result') waiting.resolve(data.result);
    else if (data.t === 'failed')
      waiting.reject(data.error.kind === 'rpc' ? new Error(data.error.message) : this.#failure(data.error));
  }

  /** The connection is over: its frame goes, and whatever waited on it fails. */
  #end(connection: Connection, error: Error): void {
    if (this.#connection) {
      void this.#connection.then(
        (c) => {
          if (c === connection) this.#connection = undefined;
        },
        () => {},
      );
    }
    this.#fail(error);
    connection.port.close();
    connection.frame.close();
    for (const [id, waiting] of this.#waiting) {
      this.#waiting.delete(id);
      waiting.reject(error);
    }
  }

  #failure(failure: WireFailure): McpConnectionError {
    const url = this.#url.href;
    const reason = failure.kind === 'rpc' ? 'protocol' : failure.kind;
    const status = failure.status;
    const sent = ['content-type', 'accept', 'mcp-protocol-version', 'mcp-session-id', 'last-event-id'];
    sent.push(...Object.keys(this.#headers).map((h) => h.toLowerCase()));
    const corsNeeds = `the server must answer OPTIONS preflights and send \`Access-Control-Allow-Origin: *\`, \`Access-Control-Allow-Headers: ${sent.join(', ')}\` (by name: \`*\` does not cover Authorization) and \`Access-Control-Expose-Headers: mcp-session-id, mcp-protocol-version\``;
    const message = {
      cors: `The MCP server at ${url} answered, but its CORS headers keep its answer from the client. The client runs sealed, at an opaque origin (its requests say \`Origin: null\`): ${corsNeeds}`,
      // There, a server without CORS headers looks like none (see client-worker.ts).
      unreachable: crossOriginIsolated
        ? `Could not read an answer from the MCP server at ${url}: nothing answers there, or it sends no CORS headers (on a cross-origin-isolated page the two look the same). If it runs: the client is sealed, at an opaque origin (its requests say \`Origin: null\`), so ${corsNeeds}`
        : `Could not reach the MCP server at ${url}: nothing answered (is it running, and is the URL right?)`,
      unauthorized: `The MCP server at ${url} refused the client (HTTP ${status}): give it credentials in \`headers\` (an Authorization header, say)`,
      http: `The MCP server at ${url} answered HTTP ${status}: ${failure.message}`,
      protocol: `The MCP server at ${url} did not answer as an MCP server: ${failure.message}`,
    }[reason];
    return new McpConnectionError({ url, reason, message, ...(status === undefined ? {} : { status }) });
  }
}
