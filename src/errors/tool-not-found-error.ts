import { registerErrorClass } from './moat-error';
import { ToolError, type ToolErrorOptions } from './tool-error';

export interface ToolNotFoundErrorOptions extends ToolErrorOptions {
  toolName: string;
  /** The names that do exist. */
  available: string[];
}

/** The model called a tool that is not served ("Available tools: …" lists the real ones). */
export class ToolNotFoundError extends ToolError {
  static {
    registerErrorClass(ToolNotFoundError, 'ToolNotFoundError');
  }
  readonly available: string[];

  constructor(options: ToolNotFoundErrorOptions) {
    super({
      ...options,
      message:
        options.message ??
        `Model called unknown tool '${options.toolName}'. Available tools: ${options.available.length ? options.available.join(', ') : '(none)'}`,
    });
    this.available = options.available;
  }
}
