/**
 * What the page and an MCP server's client worker say over their port. The worker holds the
 * official SDK's `Client`; what crosses, in which direction:
 *
 * - page → worker: requests (`McpClientApi`: connect, list the tools, call one, cancel, close), as
 *   Comlink calls the page makes through `wrap` (src/frame/channel.ts); the worker serves them
 *   with the sealed end's `answerPage`, which answers calls of the API's own methods and nothing
 *   else. Each answer is an `McpAnswer`, its shape checked by the page before use.
 * - worker → page, unasked (`McpToPage`, each checked against the page's table of shapes): a
 *   call's progress, and the server's word that its tool list changed.
 *
 * The page exposes nothing to the worker (it runs a client of a remote server: hostile input).
 */

/** A tool as an MCP server lists it (`tools/list`), the fields Moat reads. */
export interface McpTool {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  outputSchema?: Record<string, unknown>;
  annotations?: {
    title?: string;
    readOnlyHint?: boolean;
    destructiveHint?: boolean;
    idempotentHint?: boolean;
    openWorldHint?: boolean;
  };
}

/** One piece of a `tools/call` result's content (the MCP spec's ContentBlock). */
export type McpContent =
  | { type: 'text'; text: string }
  | { type: 'image'; data: string; mimeType: string }
  | { type: 'audio'; data: string; mimeType: string }
  | {
      type: 'resource';
      resource: { uri: string; mimeType?: string; text?: string; blob?: string };
    }
  | { type: 'resource_link'; uri: string; name: string; mimeType?: string; description?: string };

/** A `tools/call` result. */
export interface McpCallResult {
  content?: McpContent[];
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** Why the worker could not do what it was asked. */
export interface WireFailure {
  /**
   * `cors`: the server answered but its CORS headers keep the answer from the client;
   * `unreachable`: nothing answered; `unauthorized`: 401 or 403; `http`: another HTTP status;
   * `rpc`: the server answered with a JSON-RPC error; `too-large`: its answer is over the limit
   * (client-worker.ts's MAX_ANSWER_CHARS); `protocol`: anything else.
   */
  kind: 'cors' | 'unreachable' | 'unauthorized' | 'http' | 'rpc' | 'too-large' | 'protocol';
  message: string;
  status?: number;
  code?: number;
  /** A 401's or 403's `WWW-Authenticate`: where the server's OAuth metadata is, the scope it wants, the error. */
  challenge?: { resourceMetadataUrl?: string; scope?: string; error?: string } | undefined;
}

/** What the page asks of the client worker; every answer is data, never a thrown error. */
export interface McpClientApi {
  /** Connect to the server at `url`, sending `headers` with every request. */
  connect(url: string, headers: Record<string, string>): Promise<McpAnswer<'connected'>>;
  /** Replaces the headers of every later request (a fresh access token). */
  setHeaders(headers: Record<string, string>): void;
  /** Every page of `tools/list`. */
  listTools(): Promise<McpAnswer<'tools'>>;
  /** `tools/call`; its progress comes as `progress` messages of the same `call` number (the page's). */
  callTool(call: number, name: string, args: Record<string, unknown>): Promise<McpAnswer<'result'>>;
  /** Stop call `call` (the SDK sends the server `notifications/cancelled`). */
  cancel(call: number, reason: string): void;
  /** End the session (an HTTP DELETE where the server keeps one) and the client. */
  close(): Promise<McpAnswer<'closed'>>;
}

/** The answers, each with its tag: what was asked for, or why the worker could not do it. */
export type McpAnswers =
  | { t: 'connected' }
  | { t: 'tools'; tools: McpTool[] }
  | { t: 'result'; result: McpCallResult }
  | { t: 'closed' }
  | { t: 'failed'; error: WireFailure };

export type McpAnswer<T extends McpAnswers['t']> = Extract<McpAnswers, { t: T | 'failed' }>;

export type McpToPage =
  /** Progress of call `call` (`notifications/progress`). */
  | { t: 'progress'; call: number; progress: number; total?: number; message?: string }
  /** The server said its tool list changed (`notifications/tools/list_changed`). */
  | { t: 'changed' };
