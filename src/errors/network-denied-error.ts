import { registerErrorClass } from './moat-error';
import { ToolError, type ToolErrorOptions } from './tool-error';

/** A request from tool code was refused by the pool's network policy. */
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
        `Network access denied by the pool's policy: ${options.api} ${options.url}${options.reason ? ` (${options.reason})` : ''}`,
    });
    this.url = options.url;
  }
}
