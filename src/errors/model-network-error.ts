import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * The model's server could not be reached (refused, DNS, offline, or blocked by CORS, which a
 * browser reports the same way) before any byte of an answer arrived. `cause` is what `fetch` threw.
 */
export class ModelNetworkError extends MoatError {
  static {
    registerErrorClass(ModelNetworkError, 'ModelNetworkError');
  }
  readonly provider: string;

  constructor(options: MoatErrorOptions & { provider: string; url?: string }) {
    super({
      ...options,
      message:
        options.message ??
        `Could not reach the ${options.provider} server${options.url ? ` at ${options.url}` : ''} (offline, refused, or blocked by CORS)`,
    });
    this.provider = options.provider;
  }
}
