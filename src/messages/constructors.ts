import { describeValue } from '../errors/moat-error';
import type { AIMessage, SystemMessage, ToolMessage, UserMessage } from './types';

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`Expected ${what} to be a string, got ${describeValue(value)}`);
  return value;
}

/**
 * @example systemMessage('You are terse.')
 */
export function systemMessage(content: string, fields: { id?: string } = {}): SystemMessage {
  return { role: 'system', content: text(content, 'the content'), ...fields };
}

/**
 * @example userMessage('What is 3 * 12?')
 */
export function userMessage(content: string, fields: { id?: string } = {}): UserMessage {
  return { role: 'user', content: text(content, 'the content'), ...fields };
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
  if (typeof init !== 'string' && (typeof init !== 'object' || init === null))
    throw new TypeError(`Expected a text or the fields of an AI message, got ${describeValue(init)}`);
  const fields = typeof init === 'string' ? { content: init } : init;
  if (fields.content !== undefined) text(fields.content, 'the content');
  for (const list of ['toolCalls', 'invalidToolCalls'] as const)
    if (fields[list] !== undefined && !Array.isArray(fields[list]))
      throw new TypeError(`Expected \`${list}\` to be a list, got ${describeValue(fields[list])}`);
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
  if (typeof init !== 'object' || init === null)
    throw new TypeError(`Expected the fields of a tool message, got ${describeValue(init)}`);
  text(init.toolCallId, '`toolCallId`');
  text(init.name, '`name`');
  text(init.content, '`content`');
  if (init.status !== undefined && init.status !== 'success' && init.status !== 'error')
    throw new TypeError(`Expected \`status\` to be 'success' or 'error', got ${describeValue(init.status)}`);
  return { ...init, role: 'tool', status: init.status ?? 'success' };
}
