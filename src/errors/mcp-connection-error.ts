import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * Why an MCP server could not be used: `cors` (it answered, but its CORS headers keep the answer
 * from the page: the message names the headers it must send), `unreachable` (nothing answered),
 * `unauthorized` (401 or 403: check `headers`), `http` (another status), `protocol` (it answered
 * with something that is not MCP, or did not answer in time), `crashed` (the client's sealed frame
 * died), `closed` (`server.close()` ended what was waiting).
 */
export type McpFailure = 'cors' | 'unreachable' | 'unauthorized' | 'http' | 'protocol' | 'crashed' | 'closed';

export interface McpConnectionErrorOptions extends MoatErrorOptions {
  url: string;
  reason: McpFailure;
  status?: number;
}

export class McpConnectionError extends MoatError {
  static {
    registerErrorClass(McpConnectionError, 'McpConnectionError');
  }
  readonly url: string;
  readonly reason: McpFailure;
  readonly status: number | undefined;

  constructor(options: McpConnectionErrorOptions) {
    super({ ...options, message: options.message ?? `Could not use the MCP server at ${options.url}` });
    this.url = options.url;
    this.reason = options.reason;
    this.status = options.status;
  }
}
