import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

export interface AttachmentTooLargeErrorOptions extends MoatErrorOptions {
  threadId: string;
  /** The attachment's size, or the thread's images and files together, in bytes. */
  bytes: number;
  /** The limit it passed. */
  limit: number;
  /** `'attachment'`: one image or file is too large; `'thread'`: all of the thread's together. */
  of: 'attachment' | 'thread';
}

/**
 * An image or file is larger than the checkpointer keeps (`maxAttachmentBytes`), or a thread's
 * images and files together would be (`maxThreadBytes`). Nothing of the checkpoint was written;
 * what the thread had is kept.
 */
export class AttachmentTooLargeError extends MoatError {
  static {
    registerErrorClass(AttachmentTooLargeError, 'AttachmentTooLargeError');
  }
  readonly threadId: string;
  readonly bytes: number;
  readonly limit: number;
  readonly of: 'attachment' | 'thread';

  constructor(options: AttachmentTooLargeErrorOptions) {
    const mb = (n: number) =>
      n >= 1024 * 1024
        ? `${(n / 1024 / 1024).toFixed(1)} MB`
        : n >= 1024
          ? `${(n / 1024).toFixed(1)} KB`
          : `${n} bytes`;
    super({
      ...options,
      message:
        options.message ??
        (options.of === 'attachment'
          ? `An image or file of ${mb(options.bytes)} is larger than the ${mb(options.limit)} a thread keeps for one (maxAttachmentBytes)`
          : `Thread ${options.threadId}'s images and files would take ${mb(options.bytes)}, more than its ${mb(options.limit)} (maxThreadBytes)`),
    });
    this.threadId = options.threadId;
    this.bytes = options.bytes;
    this.limit = options.limit;
    this.of = options.of;
  }
}
