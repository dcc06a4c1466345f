/**
 * What the page and an MCP server's client worker say over their port. The worker holds the
 * official SDK's `Client`; the page asks it to connect, list the tools and call them.
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

export type ToWorker =
  | { t: 'connect'; id: number; url: string; headers: Record<string, string> }
  /** Replaces the headers of every later request (a fresh access token). */
  | { t: 'headers'; headers: Record<string, string> }
  | { t: 'list'; id: number }
  | { t: 'call'; id: number; name: string; args: Record<string, unknown> }
  | { t: 'cancel'; id: number; reason: string }
  | { t: 'close' };

export type FromWorker =
  | { t: 'connected'; id: number }
  | { t: 'tools'; id: number; tools: McpTool[] }
  | { t: 'progress'; id: number; progress: number; total?: number; message?: string }
  | { t: 'result'; id: number; result: McpCallResult }
  | { t: 'failed'; id: number; error: WireFailure }
  /** The server said its tool list changed (`notifications/tools/list_changed`). */
  | { t: 'changed' }
  | { t: 'closed' };
