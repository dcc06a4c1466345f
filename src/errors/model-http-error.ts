import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/** How much of an error response body an error keeps. */
export const MAX_ERROR_BODY = 2_000;

export interface ModelHTTPErrorOptions extends MoatErrorOptions {
  /** The HTTP status the provider answered with. */
  status: number;
  /** Which client asked: `'openai-compatible'`, `'anthropic'`, `'gemini'`, `'ollama'`. */
  provider: string;
  /** The response body, truncated to 2,000 characters, any API key removed. */
  body: string;
  /** True for statuses worth trying again later (408, 409, 429, 5xx). */
  retryable?: boolean;
}

/**
 * The model's server answered with an error status (after the retries the client allows, for the
 * ones worth retrying). `body` is what the server said, so a 400 shows which field it refused.
 */
export class ModelHTTPError extends MoatError {
  static {
    registerErrorClass(ModelHTTPError, 'ModelHTTPError');
  }
  readonly status: number;
  readonly provider: string;
  readonly body: string;
  readonly retryable: boolean;

  constructor(options: ModelHTTPErrorOptions) {
    const body = options.body.length > MAX_ERROR_BODY ? `${options.body.slice(0, MAX_ERROR_BODY)}…` : options.body;
    const detail = providerMessage(body);
    super({
      ...options,
      message:
        options.message ?? `The ${options.provider} server answered ${options.status}${detail ? `: ${detail}` : ''}`,
    });
    this.status = options.status;
    this.provider = options.provider;
    this.body = body;
    this.retryable = options.retryable ?? isRetryableStatus(options.status);
  }
}

/** 408, 409, 429 and every 5xx: the request itself may be fine, try it again later. */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** The `message` an error body carries in any of the providers' shapes, else the start of the body. */
function providerMessage(body: string): string {
  try {
    const parsed = JSON.parse(body) as { error?: unknown; message?: unknown };
    const error = parsed.error;
    if (typeof error === 'string') return error;
    if (typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string')
      return (error as { message: string }).message;
    if (typeof parsed.message === 'string') return parsed.message;
  } catch {
    // not JSON: the text itself
  }
  return body.slice(0, 200);
}
