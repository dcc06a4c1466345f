import { registerErrorClass } from './moat-error';
import { describeCall, ToolError, type ToolErrorOptions } from './tool-error';

/**
 * A tool used `runtime.store`, and whoever runs it was given no store: the pool
 * (`createWorkerPool({ store })`) or, for a tool on the page, the invoker (`new ToolInvoker({ store })`).
 * Nothing was read or written.
 */
export class StoreUnavailableError extends ToolError {
  static {
    registerErrorClass(StoreUnavailableError, 'StoreUnavailableError');
  }
  /** What would have given the tool a store. */
  readonly fix: string;

  constructor(options: ToolErrorOptions & { fix: string }) {
    super({
      ...options,
      message: options.message ?? `Tool ${describeCall(options)} used runtime.store, but it has none: ${options.fix}`,
    });
    this.fix = options.fix;
  }
}
