import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

export interface CodeErrorOptions extends MoatErrorOptions {
  /** The name of what the script threw: `ReferenceError`, `SyntaxError`, `Error`… */
  errorName: string;
  /** The line of the script it came from (1-based), when known. */
  line?: number | undefined;
  column?: number | undefined;
  detail: string;
}

/** Code run in the sandbox failed: it does not parse, or it threw (the message says what, and where). */
export class CodeError extends MoatError {
  static {
    registerErrorClass(CodeError, 'CodeError');
  }
  readonly errorName: string;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(options: CodeErrorOptions) {
    super({
      ...options,
      message:
        options.message ??
        `${options.errorName}: ${options.detail}${options.line === undefined ? '' : ` (line ${options.line})`}`,
    });
    this.errorName = options.errorName;
    this.line = options.line;
    this.column = options.column;
  }
}
