import { MoatError, type MoatErrorOptions, registerErrorClass } from './moat-error';

export interface ToolErrorOptions extends MoatErrorOptions {
  toolName?: string | undefined;
  toolCallId?: string | undefined;
}

/**
 * The base of errors that belong to one tool call: they carry the tool's name and the call's id,
 * and keep them across the worker boundary.
 */
export class ToolError extends MoatError {
  static {
    registerErrorClass(ToolError, 'ToolError');
  }
  readonly toolName: string | undefined;
  readonly toolCallId: string | undefined;

  constructor(options: ToolErrorOptions = {}) {
    super(options);
    this.toolName = options.toolName;
    this.toolCallId = options.toolCallId;
  }
}

/** `weather (call_1)`, for messages. */
export function describeCall(options: ToolErrorOptions): string {
  const name = options.toolName === undefined ? 'tool' : `'${options.toolName}'`;
  return options.toolCallId === undefined ? name : `${name} (call ${options.toolCallId})`;
}
