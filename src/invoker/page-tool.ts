/**
 * Page tools: tools that run on the page and are described by a JSON Schema they give
 * themselves (no zod on the page), such as `codeTool`. They can call the invoker's other tools,
 * each call going the way a model's call goes (interceptors, time limits, events, nested under
 * the calling tool's id). A tool that needs a person's approval is refused there: only the model
 * can ask for it, where the agent can ask a person.
 */
import { describeValue } from '../errors/moat-error';
import { ToolDeniedError } from '../errors/tool-denied-error';
import { isPlainObject } from '../json/json-value';
import { toolMessage } from '../messages/constructors';
import type { ToolCall, ToolMessage } from '../messages/types';
import type { ToolSpec } from '../providers/tool-spec';
import type { PageTool, PageToolRuntime, RunOptions, ToolEvent, ToolOutcome } from './types';

export function isPageTool(value: unknown): value is PageTool {
  return (
    isPlainObject(value) &&
    value.kind === 'page-tool' &&
    typeof value.name === 'string' &&
    typeof value.describe === 'function' &&
    typeof value.run === 'function'
  );
}

/** What the invoker lends a page tool's call. */
export interface PageToolHost {
  specs: Map<string, ToolSpec>;
  options: RunOptions;
  state: unknown;
  emit: (event: ToolEvent) => void;
  /**
   * A turn of this invoker for the nested calls: its calls' output counts in the turn of the
   * page tool's call (a script looping over a tool cannot send back more than that turn may).
   */
  begin(options: RunOptions): { add(call: ToolCall): void; close(): Promise<{ messages: ToolMessage[] }> };
  errorText(error: Error, call: ToolCall): string | undefined;
}

/** Run one call of a page tool. */
export async function runPageTool(tool: PageTool, call: ToolCall, host: PageToolHost): Promise<ToolOutcome> {
  const { specs, options, emit } = host;
  let nested = 0;
  const runtime: PageToolRuntime = {
    toolCallId: call.id,
    signal: options.signal ?? new AbortController().signal,
    emit: (delta) => emit({ type: 'tool-output-delta', toolCallId: call.id, delta }),
    tools: [...specs.values()],
    call: async (name, args, callOptions) => {
      if (typeof name !== 'string') throw new TypeError(`Expected a tool name, got ${describeValue(name)}`);
      const inner: ToolCall = { id: `${call.id}.${++nested}`, name, args: isPlainObject(args) ? args : {} };
      const under = (event: ToolEvent): ToolEvent =>
        event.type === 'done' ? event : ({ ...event, parentToolCallId: call.id } as ToolEvent);
      if (specs.get(name)?.needsApproval) {
        const error = new ToolDeniedError({
          toolName: name,
          toolCallId: inner.id,
          reason: "it needs a person's approval, which only a call of the model itself can ask for",
        });
        const message = toolMessage({
          toolCallId: inner.id,
          name,
          content: host.errorText(error, inner) ?? error.message,
          status: 'error',
        });
        emit(under({ type: 'tool-started', toolCallId: inner.id, name, args: inner.args }));
        emit(under({ type: 'tool-error', toolCallId: inner.id, error, message }));
        return message;
      }
      // Stopped with the calling tool, or sooner (a script that ended while its calls still ran).
      const own = callOptions?.signal;
      const signal = own && options.signal ? AbortSignal.any([options.signal, own]) : (own ?? options.signal);
      const turn = host.begin({
        ...options,
        ...(signal ? { signal } : {}),
        ...(isPlainObject(host.state) ? { state: host.state } : {}),
        onEvent: (event) => {
          if (event.type !== 'done') emit(under(event));
        },
      });
      turn.add(inner);
      const { messages } = await turn.close();
      return messages[0] as ToolMessage;
    },
  };
  const outcome = await tool.run(call.args, runtime);
  return typeof outcome === 'string' ? { content: outcome } : outcome;
}
