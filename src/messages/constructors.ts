import type { AIMessage, SystemMessage, ToolMessage, UserMessage } from './types';

/**
 * @example systemMessage('You are terse.')
 */
export function systemMessage(content: string, fields: { id?: string } = {}): SystemMessage {
  return { role: 'system', content, ...fields };
}

/**
 * @example userMessage('What is 3 * 12?')
 */
export function userMessage(content: string, fields: { id?: string } = {}): UserMessage {
  return { role: 'user', content, ...fields };
}

/** Fields of an AI message; everything may be left out. */
export type AIMessageInit = Partial<Omit<AIMessage, 'role'>>;

/**
 * An AI message, with empty tool-call lists filled in.
 *
 * @example
 * aiMessage('Paris.');
 * aiMessage({ toolCalls: [{ id: 'call_1', name: 'weather', args: { city: 'Paris' } }], stopReason: 'tool-calls' });
 */
export function aiMessage(init: string | AIMessageInit = {}): AIMessage {
  const fields = typeof init === 'string' ? { content: init } : init;
  return {
    ...fields,
    role: 'assistant',
    content: fields.content ?? '',
    toolCalls: fields.toolCalls ?? [],
    invalidToolCalls: fields.invalidToolCalls ?? [],
  };
}

export interface ToolMessageInit {
  toolCallId: string;
  name: string;
  content: string;
  /** Default `'success'`. */
  status?: 'success' | 'error';
  artifact?: unknown;
  id?: string;
}

/**
 * The result of a tool call, as the model will see it.
 *
 * @example toolMessage({ toolCallId: 'call_1', name: 'weather', content: 'Sunny, 21 °C' })
 */
export function toolMessage(init: ToolMessageInit): ToolMessage {
  return { ...init, role: 'tool', status: init.status ?? 'success' };
}
