import { formatIssues, type ValidationIssue } from './message-validation-error';
import { registerErrorClass } from './moat-error';
import { describeCall, ToolError, type ToolErrorOptions } from './tool-error';

export interface ToolInputValidationErrorOptions extends ToolErrorOptions {
  issues: ValidationIssue[];
}

/** The arguments (or the state or context sent with them) do not fit the tool's input; `issues` are zod's. */
export class ToolInputValidationError extends ToolError {
  static {
    registerErrorClass(ToolInputValidationError, 'ToolInputValidationError');
  }
  readonly issues: ValidationIssue[];

  constructor(options: ToolInputValidationErrorOptions) {
    super({
      ...options,
      message: options.message ?? `Invalid input for ${describeCall(options)}: ${formatIssues(options.issues)}`,
    });
    this.issues = options.issues;
  }
}
