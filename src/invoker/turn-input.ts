import { isPlainObject } from '../json/json-value';
import { isAIMessage } from '../messages/predicates';
import type { AIMessage, Message, ToolCall } from '../messages/types';
import type { InvokerInput, TurnInput } from './types';

function lastAI(messages: readonly unknown[]): AIMessage | undefined {
  for (let i = messages.length - 1; i >= 0; i--) if (isAIMessage(messages[i])) return messages[i] as AIMessage;
  return undefined;
}

function isToolCallList(input: readonly unknown[]): input is readonly ToolCall[] {
  return input.length > 0 && input.every((c) => isPlainObject(c) && typeof c.name === 'string' && !('role' in c));
}

/**
 * The calls of one turn, from any input LangGraph's ToolNode takes: an AI message, a message list
 * (its last AI message), a state object (the last AI message under `messagesKey`), or the calls.
 */
export function turnInput(input: InvokerInput, messagesKey = 'messages'): TurnInput {
  if (isAIMessage(input)) return { toolCalls: [...input.toolCalls], invalidToolCalls: [...input.invalidToolCalls] };
  if (Array.isArray(input)) {
    if (input.length === 0) return { toolCalls: [], invalidToolCalls: [] };
    if (isToolCallList(input)) return { toolCalls: [...input], invalidToolCalls: [] };
    const ai = lastAI(input as readonly Message[]);
    if (!ai) throw new TypeError('The message list has no AI message to take tool calls from');
    return { toolCalls: [...ai.toolCalls], invalidToolCalls: [...ai.invalidToolCalls] };
  }
  if (isPlainObject(input)) {
    const messages = input[messagesKey];
    if (!Array.isArray(messages)) {
      throw new TypeError(
        `Expected the state's '${messagesKey}' to be a message list, got ${messages === undefined ? 'nothing' : typeof messages}`,
      );
    }
    const ai = lastAI(messages);
    if (!ai) throw new TypeError(`The state's '${messagesKey}' has no AI message to take tool calls from`);
    return { toolCalls: [...ai.toolCalls], invalidToolCalls: [...ai.invalidToolCalls], state: input };
  }
  throw new TypeError('Expected an AI message, a message list, a state object or a list of tool calls');
}

/**
 * Where a graph should go after the model spoke: `'tools'` when its last message calls tools,
 * else `'end'` (LangGraph's `tools_condition`).
 *
 * @example if (toolsCondition(state) === 'tools') state = await runTools(state)
 */
export function toolsCondition(
  stateOrMessages: readonly Message[] | Record<string, unknown>,
  messagesKey = 'messages',
): 'tools' | 'end' {
  const messages = Array.isArray(stateOrMessages)
    ? stateOrMessages
    : (stateOrMessages as Record<string, unknown>)[messagesKey];
  if (!Array.isArray(messages) || messages.length === 0) return 'end';
  const last = messages[messages.length - 1];
  return isAIMessage(last) && (last.toolCalls.length > 0 || last.invalidToolCalls.length > 0) ? 'tools' : 'end';
}
