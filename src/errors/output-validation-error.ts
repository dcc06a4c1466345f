import { formatIssues, type ValidationIssue } from './message-validation-error';
import { MoatError, type MoatErrorOptions, quote, registerErrorClass } from './moat-error';

export interface OutputValidationErrorOptions extends MoatErrorOptions {
  /** What is wrong with the answer, each with its path (`[]`: the answer as a whole). */
  issues: ValidationIssue[];
  /** The model's answer, as it came. */
  text: string;
}

/**
 * The model's final answer is not the structured output the run asked for (`output`): not JSON,
 * or JSON that fails the schema. `issues` say where; `text` is the answer itself. The thread
 * keeps the answer.
 */
export class OutputValidationError extends MoatError {
  static {
    registerErrorClass(OutputValidationError, 'OutputValidationError');
  }
  readonly issues: ValidationIssue[];
  readonly text: string;

  constructor(options: OutputValidationErrorOptions) {
    super({
      ...options,
      message:
        options.message ??
        `The model's answer does not match the output schema: ${formatIssues(options.issues)} (answer: ${quote(options.text)})`,
    });
    this.issues = options.issues;
    this.text = options.text;
  }
}
