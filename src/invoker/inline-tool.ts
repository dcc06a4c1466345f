/**
 * Inline tools: tools made by `defineTool` that run on the page, without a worker's isolation
 * (their specs say `isolated: false`). Their runtime (zod, JSON Schema) is a chunk of its own,
 * loaded with the specs only when an invoker has such tools.
 */
import type { ToolDefinition } from '../../worker/define-tool';
import type { ToolCall } from '../messages/types';
import type { ResultFormat } from '../pool/protocol';
import type { ToolSpec } from '../providers/tool-spec';
import { scopeStore } from '../store/scoped-store';
import type { Store } from '../store/types';
import { unavailableStore } from '../store/unavailable-store';
import type { ToolEvent, ToolOutcome } from './types';

/** `worker/inline`: what describes and runs inline tools. */
export type InlineRuntime = typeof import('../../worker/inline');

export const loadInlineRuntime = (): Promise<InlineRuntime> => import('../../worker/inline');

/** What an inline tool's call gets from its turn. */
export interface InlineCall {
  state: unknown;
  context: unknown;
  resultFormat: ResultFormat | undefined;
  /** The invoker's store: the tool sees the namespaces it declared. */
  store: Store | undefined;
  signal: AbortSignal | undefined;
  specs: Map<string, ToolSpec>;
  emit: (event: ToolEvent) => void;
}

/** Run one call of an inline tool; its failure is a rejection, thrown synchronously or not. */
export function runInlineTool(
  runtime: InlineRuntime,
  tool: ToolDefinition,
  toolCall: ToolCall,
  call: InlineCall,
): Promise<ToolOutcome> {
  const { store, emit } = call;
  let signal = call.signal;
  try {
    return Promise.resolve(
      runtime.executeTool(
        tool,
        {
          toolCallId: toolCall.id,
          name: toolCall.name,
          args: toolCall.args,
          state: call.state,
          context: call.context,
          ...(call.resultFormat ? { resultFormat: call.resultFormat } : {}),
        },
        {
          signal: () => (signal ??= new AbortController().signal),
          emit: (delta) => emit({ type: 'tool-output-delta', toolCallId: toolCall.id, delta }),
          store: () => {
            const who = { toolName: toolCall.name, toolCallId: toolCall.id };
            if (!store) return unavailableStore(who, 'its invoker has no store: pass `store` to the ToolInvoker');
            return tool.storeNamespaces ? scopeStore(store, tool.storeNamespaces, who) : store;
          },
          tools: () => [...call.specs.values()],
        },
      ),
    );
  } catch (error) {
    return Promise.reject(error);
  }
}
