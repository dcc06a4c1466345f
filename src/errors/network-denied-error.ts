import { registerErrorClass } from './moat-error';
import { ToolError, type ToolErrorOptions } from './tool-error';

/** How to let a tool reach the network: the option the page sets (a tool cannot widen it). */
const ALLOW_HINT =
  "To allow it, give createWorkerPool a `network` option: 'allow', or a function (url, api) => boolean that answers true for this URL.";

/**
 * A request from tool code was refused by the pool's network policy. The message ends with the
 * fix, for the developer who reads it in a console and for a model that reports it.
 */
export class NetworkDeniedError extends ToolError {
  static {
    registerErrorClass(NetworkDeniedError, 'NetworkDeniedError');
  }
  readonly url: string;

  constructor(options: ToolErrorOptions & { url: string; api: string; reason?: string }) {
    super({
      ...options,
      message:
        options.message ??
        `Network access denied by the pool's policy: ${options.api} ${options.url}${options.reason ? ` (${options.reason})` : ''}. ${ALLOW_HINT}`,
    });
    this.url = options.url;
  }
}
