import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

export interface UnknownMediaTypeErrorOptions extends MoatErrorOptions {
  /** The kind of part: `'image'` or `'file'`. */
  part: string;
  /** What the data was, in words (`a Blob of 12 bytes with no type`). */
  source: string;
}

/**
 * The media type of an image or file could not be told: no `mediaType` was given, the `File` or
 * `Blob` had no type, and the first bytes are none of PNG, JPEG, GIF, WebP or PDF. Give
 * `mediaType` on the part.
 */
export class UnknownMediaTypeError extends MoatError {
  static {
    registerErrorClass(UnknownMediaTypeError, 'UnknownMediaTypeError');
  }
  readonly part: string;
  readonly source: string;

  constructor(options: UnknownMediaTypeErrorOptions) {
    super({
      ...options,
      message:
        options.message ??
        `Cannot tell the media type of the ${options.part} (${options.source}): its first bytes are not PNG, JPEG, GIF, WebP or PDF. Give \`mediaType\` on the part`,
    });
    this.part = options.part;
    this.source = options.source;
  }
}
