import { describe, expect, it } from 'vitest';
import { MessageValidationError } from '../errors/message-validation-error';
import { aiMessage, systemMessage, toolMessage, userMessage } from './constructors';
import { messageFromJSON, messageToJSON, safeMessageFromJSON } from './message-json';
import {
  hasToolCalls,
  isAIMessage,
  isSystemMessage,
  isText,
  isToolMessage,
  isToolStop,
  isUserMessage,
} from './predicates';
import type { Message } from './types';

const call = { id: 'call_1', name: 'weather', args: { city: 'Paris', days: [1, 2] } };

const samples: Message[] = [
  systemMessage('Be terse.'),
  userMessage('Weather in Paris?', { id: 'u1' }),
  aiMessage({
    content: 'Let me check.',
    toolCalls: [call],
    invalidToolCalls: [{ id: 'call_2', name: 'x', args: '{oops', error: 'bad JSON' }],
    stopReason: 'tool-calls',
    id: 'msg_1',
    reasoning: 'The user wants weather.',
    usage: { inputTokens: 10, outputTokens: 5, totalTokens: 15 },
    metadata: { model: 'gpt-x', signatures: { call_1: 'sig' } },
  }),
  toolMessage({ toolCallId: 'call_1', name: 'weather', content: 'Sunny', artifact: { tempC: 21 } }),
  toolMessage({ toolCallId: 'call_2', name: 'x', content: 'Error: bad JSON', status: 'error' }),
];

describe('constructors', () => {
  it('fill in the defaults', () => {
    expect(aiMessage('hi')).toEqual({ role: 'assistant', content: 'hi', toolCalls: [], invalidToolCalls: [] });
    expect(aiMessage()).toEqual({ role: 'assistant', content: '', toolCalls: [], invalidToolCalls: [] });
    expect(toolMessage({ toolCallId: 'c', name: 'n', content: 'x' })).toEqual({
      role: 'tool',
      toolCallId: 'c',
      name: 'n',
      content: 'x',
      status: 'success',
    });
  });

  it('refuse fields of the wrong kind with a TypeError naming them', () => {
    expect(() => userMessage(42 as never)).toThrow(
      'Expected the content to be a string or a list of parts, got `42` (number)',
    );
    expect(() => systemMessage(undefined as never)).toThrow(/the content to be a string/);
    expect(() => aiMessage(5 as never)).toThrow(/a text or the fields of an AI message, got `5`/);
    expect(() => aiMessage({ toolCalls: {} as never })).toThrow(/`toolCalls` to be a list/);
    expect(() => toolMessage({ name: 'n', content: 'x' } as never)).toThrow(/`toolCallId` to be a string/);
    expect(() => toolMessage({ toolCallId: 'c', name: 'n', content: 'x', status: 'ok' as never })).toThrow(
      /`status` to be 'success' or 'error'/,
    );
  });
});

describe('predicates', () => {
  const [system, user, ai, tool] = samples;
  it('tell the roles apart', () => {
    expect(samples.map((m) => [isSystemMessage(m), isUserMessage(m), isAIMessage(m), isToolMessage(m)])).toEqual([
      [true, false, false, false],
      [false, true, false, false],
      [false, false, true, false],
      [false, false, false, true],
      [false, false, false, true],
    ]);
    expect(isAIMessage(null)).toBe(false);
    expect(isAIMessage('assistant')).toBe(false);
  });

  it('hasToolCalls counts valid and invalid calls', () => {
    expect(hasToolCalls(ai)).toBe(true);
    expect(hasToolCalls(aiMessage({ invalidToolCalls: [{ id: 'i', args: '', error: 'no name' }] }))).toBe(true);
    expect(hasToolCalls(aiMessage('done'))).toBe(false);
    expect(hasToolCalls(user)).toBe(false);
    expect(hasToolCalls(undefined)).toBe(false);
  });

  it('isToolStop reads the stop reason; isText means no calls at all', () => {
    expect(isToolStop(ai)).toBe(true);
    expect(isToolStop(aiMessage({ content: 'x', stopReason: 'end' }))).toBe(false);
    expect(isText(aiMessage({ content: 'x', stopReason: 'end' }))).toBe(true);
    expect(isText(ai)).toBe(false);
    expect(isText(system)).toBe(false);
    expect(isText(tool)).toBe(false);
  });
});

describe('messageToJSON / messageFromJSON', () => {
  it.each(samples.map((m) => [m.role, m] as const))('round-trips a %s message through JSON text', (_role, message) => {
    const text = JSON.stringify(messageToJSON(message));
    expect(messageFromJSON(JSON.parse(text))).toEqual(message);
  });

  it('round-trips through structured clone too', () => {
    for (const message of samples) expect(messageFromJSON(structuredClone(messageToJSON(message)))).toEqual(message);
  });

  it('toJSON drops undefined fields; fromJSON drops unknown ones', () => {
    const ai = { ...aiMessage('x'), id: undefined, extra: 1 } as unknown as Message;
    expect(messageToJSON(ai)).toEqual({
      role: 'assistant',
      content: 'x',
      toolCalls: [],
      invalidToolCalls: [],
      extra: 1,
    });
    expect(messageFromJSON({ role: 'user', content: 'x', extra: 1, id: undefined })).toEqual({
      role: 'user',
      content: 'x',
    });
  });

  it('refuses an artifact JSON cannot hold, naming where it is', () => {
    const bad = toolMessage({ toolCallId: 'c', name: 'n', content: 'x', artifact: { when: new Date(0) } });
    expect(() => messageToJSON(bad)).toThrow(MessageValidationError);
    expect(() => messageToJSON(bad)).toThrow(/artifact\.when: a Date cannot be stored as JSON/);
    const fn = toolMessage({ toolCallId: 'c', name: 'n', content: 'x', artifact: [() => 1] });
    expect(() => messageToJSON(fn)).toThrow(/artifact\.0: a function/);
  });

  it.each([
    ['not an object', 'hello'],
    ['an unknown role', { role: 'robot', content: 'x' }],
    ['a missing content', { role: 'user' }],
    ['tool calls that are not a list', { role: 'assistant', content: '', toolCalls: {}, invalidToolCalls: [] }],
    [
      'a tool call without id',
      { role: 'assistant', content: '', toolCalls: [{ name: 'x', args: {} }], invalidToolCalls: [] },
    ],
    [
      'args that are an array',
      { role: 'assistant', content: '', toolCalls: [{ id: 'c', name: 'x', args: [] }], invalidToolCalls: [] },
    ],
    [
      'an unknown stop reason',
      { role: 'assistant', content: '', toolCalls: [], invalidToolCalls: [], stopReason: 'stop' },
    ],
    ['a bad status', { role: 'tool', toolCallId: 'c', name: 'n', content: 'x', status: 'ok' }],
  ])('rejects %s with a typed error', (_what, value) => {
    const result = safeMessageFromJSON(value);
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error).toBeInstanceOf(MessageValidationError);
    expect(result.error.issues.length).toBeGreaterThan(0);
    expect(result.error.value).toBe(value);
    expect(() => messageFromJSON(value)).toThrow(MessageValidationError);
  });

  it('points at the bad field', () => {
    const result = safeMessageFromJSON({
      role: 'assistant',
      content: '',
      toolCalls: [{ name: 'x', args: {} }],
      invalidToolCalls: [],
    });
    expect(result.success).toBe(false);
    if (!result.success) expect(result.error.message).toMatch(/^Invalid message: toolCalls\.0\.id: /);
  });

  it('drops unknown fields, at the top and in tool calls, and keeps every known one', () => {
    const result = safeMessageFromJSON({
      role: 'assistant',
      content: 'hi',
      toolCalls: [{ id: 'c', name: 'x', args: { a: 1 }, extra: true }],
      invalidToolCalls: [{ id: 'd', args: '{', error: 'cut', junk: 1 }],
      stopReason: 'tool-calls',
      usage: { inputTokens: 3 },
      metadata: { p: { q: 1 } },
      surprise: 'dropped',
    });
    expect(result).toEqual({
      success: true,
      value: {
        role: 'assistant',
        content: 'hi',
        toolCalls: [{ id: 'c', name: 'x', args: { a: 1 } }],
        invalidToolCalls: [{ id: 'd', args: '{', error: 'cut' }],
        stopReason: 'tool-calls',
        usage: { inputTokens: 3 },
        metadata: { p: { q: 1 } },
      },
    });
  });

  it('lists every problem, each with its path, and names an unknown role', () => {
    const result = safeMessageFromJSON({ role: 'tool', toolCallId: 5, name: 'n', content: null, status: 'ok' });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.issues.map((i) => i.path)).toEqual([['toolCallId'], ['content'], ['status']]);
    const robot = safeMessageFromJSON({ role: 'robot' });
    expect(robot.success || robot.error.issues[0]?.path).toEqual(['role']);
  });
});
