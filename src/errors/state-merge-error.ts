import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/**
 * Tools of one turn wrote different values to the same state key whose reducer is `replace`:
 * which should win is not Moat's to guess (Haystack's ToolOutputMergeError).
 */
export class StateMergeError extends MoatError {
  static {
    registerErrorClass(StateMergeError, 'StateMergeError');
  }
  readonly key: string;
  readonly toolCallIds: string[];

  constructor(options: MoatErrorOptions & { key: string; toolCallIds: string[] }) {
    super({
      ...options,
      message:
        options.message ??
        `Tool calls ${options.toolCallIds.join(', ')} wrote different values to state key '${options.key}' in one turn. Give '${options.key}' a reducer ('append' or a function) to combine them.`,
    });
    this.key = options.key;
    this.toolCallIds = options.toolCallIds;
  }
}
