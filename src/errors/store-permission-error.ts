import { registerErrorClass } from './moat-error';
import { ToolError, type ToolErrorOptions } from './tool-error';

/** A tool touched a store namespace outside those it declared (`defineTool({ store: { namespaces } })`). */
export class StorePermissionError extends ToolError {
  static {
    registerErrorClass(StorePermissionError, 'StorePermissionError');
  }
  readonly namespace: string[];
  readonly allowed: string[][];

  constructor(options: ToolErrorOptions & { namespace: string[]; allowed: string[][] }) {
    const fmt = (ns: string[]) => `[${ns.map((l) => JSON.stringify(l)).join(', ')}]`;
    super({
      ...options,
      message:
        options.message ??
        `Tool ${options.toolName === undefined ? '' : `'${options.toolName}' `}may not touch store namespace ${fmt(options.namespace)}. Allowed: ${options.allowed.map(fmt).join(', ') || '(none)'}`,
    });
    this.namespace = options.namespace;
    this.allowed = options.allowed;
  }
}
