import { MoatError, type MoatErrorOptions, quote, registerErrorClass } from './moat-error';

export interface InvalidToolSpecErrorOptions extends MoatErrorOptions {
  /** The tool's name as given (may itself be the problem). */
  toolName: unknown;
  /** What is wrong, in words. */
  reason: string;
}

/**
 * A tool spec providers would refuse: a bad name, a missing description, an input schema that is
 * not a JSON Schema object, or one that breaks OpenAI strict-mode rules when strict is asked for.
 */
export class InvalidToolSpecError extends MoatError {
  static {
    registerErrorClass(InvalidToolSpecError, 'InvalidToolSpecError');
  }
  readonly toolName: unknown;
  readonly reason: string;

  constructor(options: InvalidToolSpecErrorOptions) {
    super({ ...options, message: options.message ?? `Invalid tool ${quote(options.toolName)}: ${options.reason}` });
    this.toolName = options.toolName;
    this.reason = options.reason;
  }
}
