import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

/** One problem found in a value, with the path to it (zod's issue shape, trimmed). */
export interface ValidationIssue {
  path: (string | number)[];
  message: string;
  code?: string;
}

export interface MessageValidationErrorOptions extends MoatErrorOptions {
  /** What was being read, as received. */
  value: unknown;
  issues: ValidationIssue[];
}

/**
 * A stored or received message does not have the shape of a Moat message
 * (thrown by `messageFromJSON`; `safeMessageFromJSON` returns it instead).
 */
export class MessageValidationError extends MoatError {
  static {
    registerErrorClass(MessageValidationError, 'MessageValidationError');
  }
  readonly value: unknown;
  readonly issues: ValidationIssue[];

  constructor(options: MessageValidationErrorOptions) {
    super({
      ...options,
      message: options.message ?? `Invalid message: ${formatIssues(options.issues)}`,
    });
    this.value = options.value;
    this.issues = options.issues;
  }
}

/** `role: expected 'user' | …; toolCalls.0.id: required` */
export function formatIssues(issues: readonly ValidationIssue[], max = 5): string {
  const shown = issues.slice(0, max).map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message));
  if (issues.length > max) shown.push(`and ${issues.length - max} more`);
  return shown.join('; ');
}
