import { MessageValidationError } from '../errors/message-validation-error';
import { describeValue } from '../errors/moat-error';
import { contentIssues } from './message-json';
import type { AIMessage, Content, SystemMessage, ToolMessage, UserMessage } from './types';

function text(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`Expected ${what} to be a string, got ${describeValue(value)}`);
  return value;
}

/** A text, or a list of parts each of the right shape (`MessageValidationError` names the first that is not). */
function content(value: unknown, what: string): Content {
  if (typeof value === 'string') return value;
  if (!Array.isArray(value))
    throw new TypeError(`Expected ${what} to be a string or a list of parts, got ${describeValue(value)}`);
  const issues = contentIssues(value);
  if (issues.length > 0) throw new MessageValidationError({ value, issues });
  return value;
}

/**
 * @example systemMessage('You are terse.')
 */
export function systemMessage(content: string, fields: { id?: string } = {}): SystemMessage {
  return { role: 'system', content: text(content, 'the content'), ...fields };
}

/**
 * A user's message: a text, or parts (text, images, files) whose data is already base64 or a URL.
 * (`agent.run` takes a `File`, a `Blob` or bytes too, and reads them first.)
 *
 * @example
 * userMessage('What is 3 * 12?');
 * userMessage([{ type: 'text', text: 'What is this?' }, { type: 'image', data: 'https://example.com/cat.png' }]);
 */
export function userMessage(init: Content, fields: { id?: string } = {}): UserMessage {
  return { role: 'user', content: content(init, 'the content'), ...fields };
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
  /** A text, or parts (an image the tool drew, say). */
  content: Content;
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
  content(init.content, '`content`');
  if (init.status !== undefined && init.status !== 'success' && init.status !== 'error')
    throw new TypeError(`Expected \`status\` to be 'success' or 'error', got ${describeValue(init.status)}`);
  return { ...init, role: 'tool', status: init.status ?? 'success' };
}
