import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * The model's answer began but cannot be trusted: the stream ended without the provider's end
 * event, broke off, carried an error event, or held nothing but lines that are not its format.
 * Never retried (bytes had arrived).
 */
export class ModelStreamError extends MoatError {
  static {
    registerErrorClass(ModelStreamError, 'ModelStreamError');
  }
  readonly provider: string;
  readonly reason: 'truncated' | 'provider-error' | 'malformed' | 'broken';

  constructor(options: MoatErrorOptions & { provider: string; reason: ModelStreamError['reason']; detail: string }) {
    super({ ...options, message: options.message ?? `The ${options.provider} stream failed: ${options.detail}` });
    this.provider = options.provider;
    this.reason = options.reason;
  }
}
