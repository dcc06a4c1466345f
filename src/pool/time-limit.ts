/** The time limits that may apply to one call, from the most specific to the least, in ms. */
export interface TimeLimits {
  /** Given for this one call (`pool.call(call, { timeoutMs })`, or an interceptor's `request.override`). */
  call?: number | undefined;
  /** The tool's own (`defineTool({ timeoutMs })`). */
  tool?: number | undefined;
  /** The caller's default for tools that declare none (`new ToolInvoker({ timeoutMs })`). */
  invoker?: number | undefined;
  /** The pool's (`createWorkerPool({ timeoutMs })`, 30 s by default). */
  pool: number;
}

/**
 * The limit a call runs under: the most specific one given wins (the call's, then the tool's
 * own, then the invoker's, then the pool's). `Infinity` is a limit too: none at all.
 *
 * @example
 * resolveTimeLimit({ tool: 3_000, invoker: 60_000, pool: 30_000 }); // 3_000: the tool knows best
 * resolveTimeLimit({ call: 500, tool: 3_000, pool: 30_000 }); // 500
 */
export function resolveTimeLimit(limits: TimeLimits): number {
  return limits.call ?? limits.tool ?? limits.invoker ?? limits.pool;
}
