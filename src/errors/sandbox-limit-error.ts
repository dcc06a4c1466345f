import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

export interface SandboxLimitErrorOptions extends MoatErrorOptions {
  /** What ran over: the script's text, its console output, or its result. */
  limit: 'code' | 'output' | 'result';
  /** The limit, in characters. */
  max: number;
}

/** A run of the code sandbox went over one of its size limits (the sandbox is replaced). */
export class SandboxLimitError extends MoatError {
  static {
    registerErrorClass(SandboxLimitError, 'SandboxLimitError');
  }
  readonly limit: SandboxLimitErrorOptions['limit'];
  readonly max: number;

  constructor(options: SandboxLimitErrorOptions) {
    const what = { code: 'The script', output: "The script's console output", result: "The script's result" }[
      options.limit
    ];
    super({ ...options, message: options.message ?? `${what} is longer than the limit of ${options.max} characters` });
    this.limit = options.limit;
    this.max = options.max;
  }
}
