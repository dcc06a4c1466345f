/**
 * Calls of tools from a `ToolSource` (an MCP server, a page's WebMCP tools): what the pool does
 * for its own calls, done here for them: a time limit, and a stop that reaches the source.
 */
import { describeValue } from '../errors/moat-error';
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

/** Throws a TypeError unless `sources` is a list of tool sources. */
export function checkSources(sources: unknown): readonly ToolSource[] {
  if (sources === undefined) return [];
  if (!Array.isArray(sources)) throw new TypeError(`Expected \`tools\` to be a list, got ${describeValue(sources)}`);
  for (const source of sources) {
    if (!isToolSource(source))
      throw new TypeError(
        `Expected \`tools\` to hold tool sources (mcpServer(…), pageTools()), got ${describeValue(source)}`,
      );
  }
  return sources;
}

export interface SourceCall {
  signal: AbortSignal | undefined;
  /** This call's limit, else the invoker's, else the pool's default (`Infinity`: none). */
  timeoutMs: number | undefined;
  emit: (event: ToolEvent) => void;
}

/** Run one call on its source; its time running out stops it there and fails it with `ToolTimeoutError`. */
export function runSourceTool(source: ToolSource, call: ToolCall, options: SourceCall): Promise<ToolOutcome> {
  const limit = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const controller = new AbortController();
  const stop = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', stop, { once: true });
  if (options.signal?.aborted) stop();
  const timer = Number.isFinite(limit)
    ? setTimeout(
        () => controller.abort(new ToolTimeoutError({ toolName: call.name, toolCallId: call.id, timeoutMs: limit })),
        limit,
      )
    : undefined;
  const args = isPlainObject(call.args) ? call.args : {};
  return Promise.resolve()
    .then(() =>
      source.call(
        { ...call, args },
        {
          signal: controller.signal,
          emit: (delta) => options.emit({ type: 'tool-output-delta', toolCallId: call.id, delta }),
        },
      ),
    )
    .finally(() => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', stop);
    });
}
