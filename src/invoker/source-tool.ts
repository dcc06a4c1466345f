/**
 * Calls of tools from a `ToolSource` (an MCP server, a page's WebMCP tools): what the pool does
 * for its own calls, done here for them: a time limit, and a stop that reaches the source.
 */
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { isPlainObject } from '../json/json-value';
import type { ToolCall } from '../messages/types';
import { DEFAULTS } from '../pool/pool-options';
import type { ToolEvent, ToolOutcome, ToolSource } from './types';

export function isToolSource(value: unknown): value is ToolSource {
  const source = value as ToolSource;
  return (
    typeof value === 'object' &&
    value !== null &&
    source.kind === 'tool-source' &&
    typeof source.specs === 'function' &&
    typeof source.call === 'function' &&
    typeof source.onChange === 'function'
  );
}

export interface SourceCall {
  signal: AbortSignal | undefined;
  /** This call's limit, else the invoker's, else the pool's default (`Infinity`: none). */
  timeoutMs: number | undefined;
  emit: (event: ToolEvent) => void;
}

/**
 * Run one call on its source; its time running out stops it there and fails it with
 * `ToolTimeoutError`. A stop settles the call at once, whether or not the source heeds its signal.
 */
export function runSourceTool(source: ToolSource, call: ToolCall, options: SourceCall): Promise<ToolOutcome> {
  const limit = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const timeout = new AbortController();
  const signal = options.signal ? AbortSignal.any([options.signal, timeout.signal]) : timeout.signal;
  const timer = Number.isFinite(limit)
    ? setTimeout(
        () => timeout.abort(new ToolTimeoutError({ toolName: call.name, toolCallId: call.id, timeoutMs: limit })),
        limit,
      )
    : undefined;
  let onAbort = () => {};
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () => reject(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
  const args = isPlainObject(call.args) ? call.args : {};
  const emit = (delta: unknown) => options.emit({ type: 'tool-output-delta', toolCallId: call.id, delta });
  const running = Promise.resolve().then(() => source.call({ ...call, args }, { signal, emit }));
  return Promise.race([running, stopped]).finally(() => {
    clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
  });
}
