import type { AIMessage, Message, SystemMessage, ToolMessage, UserMessage } from './types';

function hasRole(value: unknown, role: string): boolean {
  return typeof value === 'object' && value !== null && (value as { role?: unknown }).role === role;
}

/** @example messages.filter(isAIMessage) */
export function isAIMessage(value: unknown): value is AIMessage {
  return hasRole(value, 'assistant');
}

/** @example messages.filter(isToolMessage) */
export function isToolMessage(value: unknown): value is ToolMessage {
  return hasRole(value, 'tool');
}

/** @example isUserMessage(userMessage('hi')) // true */
export function isUserMessage(value: unknown): value is UserMessage {
  return hasRole(value, 'user');
}

/** @example isSystemMessage(systemMessage('Be terse.')) // true */
export function isSystemMessage(value: unknown): value is SystemMessage {
  return hasRole(value, 'system');
}

/**
 * True when the message is an AI message that calls at least one tool (LangChain's `tool_calls`).
 * Invalid tool calls count too: they must be answered with error results.
 *
 * @example if (hasToolCalls(ai)) await invoker.run(ai)
 */
export function hasToolCalls(message: Message | undefined): message is AIMessage {
  return isAIMessage(message) && (message.toolCalls.length > 0 || message.invalidToolCalls.length > 0);
}

/**
 * True when the model stopped in order to call tools (RobotLab's `tool_stop?`).
 *
 * @example isToolStop(decoder.finish())
 */
export function isToolStop(message: Message | undefined): message is AIMessage {
  return isAIMessage(message) && message.stopReason === 'tool-calls';
}

/**
 * True for an AI message that is a plain text answer: no tool calls, valid or invalid.
 *
 * @example if (isText(ai)) render(ai.content)
 */
export function isText(message: Message | undefined): message is AIMessage {
  return isAIMessage(message) && message.toolCalls.length === 0 && message.invalidToolCalls.length === 0;
}
