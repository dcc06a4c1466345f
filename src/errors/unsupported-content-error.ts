import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

export interface UnsupportedContentErrorOptions extends MoatErrorOptions {
  /** The provider format that cannot take the part: `'anthropic'`, `'ollama'`, … */
  provider: string;
  /** The part as Moat holds it, in words: `a file part (application/pdf)`. */
  part: string;
  /** Where it was: `a user message`, `a tool result`. */
  where: string;
  /** What the provider takes instead. */
  accepted: string;
}

/**
 * A provider cannot take a part of a message (Ollama a PDF, Anthropic an image URL in a format it
 * does not read, …). Thrown while the request is built, so nothing is sent.
 */
export class UnsupportedContentError extends MoatError {
  static {
    registerErrorClass(UnsupportedContentError, 'UnsupportedContentError');
  }
  readonly provider: string;
  readonly part: string;
  readonly where: string;
  readonly accepted: string;

  constructor(options: UnsupportedContentErrorOptions) {
    super({
      ...options,
      message:
        options.message ??
        `The ${options.provider} format cannot take ${options.part} in ${options.where}. It takes: ${options.accepted}`,
    });
    this.provider = options.provider;
    this.part = options.part;
    this.where = options.where;
    this.accepted = options.accepted;
  }
}
