import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * Why a page cannot use WebMCP: `missing` (the browser has no `document.modelContext` of its own
 * and the page installed no polyfill), `insecure` (the page is not a secure context, where neither
 * the browser's WebMCP nor the polyfill installs).
 */
export type WebMCPUnavailableReason = 'missing' | 'insecure';

/** The npm package that gives a browser without WebMCP of its own a `document.modelContext`. */
export const WEBMCP_POLYFILL = '@mcp-b/webmcp-polyfill';

/**
 * `exposeTools` or `pageTools` found no WebMCP on this page. Moat does not install the polyfill
 * itself (an app that does not use WebMCP should not need it installed): the message says how.
 */
export class WebMCPUnavailableError extends MoatError {
  static {
    registerErrorClass(WebMCPUnavailableError, 'WebMCPUnavailableError');
  }
  readonly reason: WebMCPUnavailableReason;

  constructor(options: MoatErrorOptions & { reason: WebMCPUnavailableReason }) {
    super({
      ...options,
      message:
        options.message ??
        (options.reason === 'insecure'
          ? 'WebMCP needs a secure context (https, or http://localhost): this page has no document.modelContext, and no polyfill installs one here'
          : `This page has no WebMCP (document.modelContext). Where the browser has none of its own, install ${WEBMCP_POLYFILL} and call its initializeWebMCPPolyfill() before exposeTools or pageTools`),
    });
    this.reason = options.reason;
  }
}
