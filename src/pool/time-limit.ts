/** The time limits that may apply to one call, from the most specific to the least, in ms. */
export interface TimeLimits {
  /** Given for this one call (`pool.call(call, { timeoutMs })`, or an interceptor's `request.override`). */
  call?: number | undefined;
  /** The tool's own (`defineTool({ timeoutMs })`): what the worker says, so never above `ceiling`. */
  tool?: number | undefined;
  /** The caller's default for tools that declare none (`new ToolInvoker({ timeoutMs })`). */
  invoker?: number | undefined;
  /** The pool's (`createWorkerPool({ timeoutMs })`, 30 s by default). */
  pool: number;
  /**
   * The longest limit a tool may give itself (`createWorkerPool({ maxToolTimeoutMs })`); the
   * pool's own limit when not given.
   */
  ceiling?: number | undefined;
}

/**
 * The limit a call runs under: the most specific one given wins (the call's, then the tool's
 * own, then the invoker's, then the pool's). `Infinity` is a limit too: none at all.
 *
 * The page's levels (the call's, the invoker's, the pool's) are taken as they are. The tool's is
 * what its worker says, and a worker is untrusted: it may shorten its limit, never lengthen it
 * past the ceiling, the pool's limit unless the page allows more.
 *
 * @example
 * resolveTimeLimit({ tool: 3_000, invoker: 60_000, pool: 30_000 }); // 3_000: the tool knows best
 * resolveTimeLimit({ tool: Infinity, pool: 30_000 }); // 30_000: the pool's is a ceiling
 * resolveTimeLimit({ call: 500, tool: 3_000, pool: 30_000 }); // 500
 */
export function resolveTimeLimit(limits: TimeLimits): number {
  if (limits.call !== undefined) return limits.call;
  if (limits.tool !== undefined) return Math.min(limits.tool, limits.ceiling ?? limits.pool);
  return limits.invoker ?? limits.pool;
}
