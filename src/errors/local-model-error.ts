import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * A local model could not be fetched, kept or loaded. `reason` says which:
 * - `download`: the server refused it or the connection broke (what arrived is kept; the next
 *   load resumes from there);
 * - `storage-full`: the browser's storage has no room for it (its quota, or the disk): the browser
 *   refused a write, and what was written is removed;
 * - `not-gguf`: the file does not begin as a GGUF file does;
 * - `cannot-load`: llama.cpp refused it (a file cut short, an architecture it does not know, or
 *   more memory than the page may have).
 */
export class LocalModelError extends MoatError {
  static {
    registerErrorClass(LocalModelError, 'LocalModelError');
  }
  readonly reason: 'download' | 'storage-full' | 'not-gguf' | 'cannot-load';
  /** The model's address (or `'a Blob'`). */
  readonly source: string;

  constructor(options: MoatErrorOptions & { reason: LocalModelError['reason']; source: string; detail: string }) {
    super({ ...options, message: options.message ?? `The local model ${options.source} ${options.detail}` });
    this.reason = options.reason;
    this.source = options.source;
  }
}
