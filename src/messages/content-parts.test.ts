import { describe, expect, it } from 'vitest';
import { MessageValidationError } from '../errors/message-validation-error';
import { toolMessage, userMessage } from './constructors';
import { checkMessages, messageFromJSON, messageToJSON, safeMessageFromJSON } from './message-json';
import { textOf } from './text-of';
import type { ContentPart, Message } from './types';

const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const parts: ContentPart[] = [
  { type: 'text', text: 'What is in this picture?' },
  { type: 'image', data: PNG_BASE64, mediaType: 'image/png', filename: 'dot.png' },
  { type: 'image', data: 'https://example.com/cat.jpg' },
  { type: 'image', data: `data:image/png;base64,${PNG_BASE64}` },
  { type: 'file', data: 'JVBERi0xLjcK', mediaType: 'application/pdf', filename: 'report.pdf' },
  { type: 'text', text: 'And this report?' },
];

describe('content parts in messages', () => {
  it('a user or tool message with parts round-trips through JSON text, each part as it was', () => {
    const messages: Message[] = [
      userMessage(parts, { id: 'u1' }),
      toolMessage({
        toolCallId: 'c1',
        name: 'chart',
        content: [{ type: 'text', text: 'drawn' }, parts[1] as ContentPart],
      }),
    ];
    for (const message of messages) {
      const text = JSON.stringify(messageToJSON(message));
      expect(messageFromJSON(JSON.parse(text))).toEqual(message);
    }
  });

  it('a message whose content is a string serialises exactly as before', () => {
    expect(JSON.stringify(messageToJSON(userMessage('hi', { id: 'u' })))).toBe(
      '{"role":"user","content":"hi","id":"u"}',
    );
    expect(JSON.stringify(messageToJSON(toolMessage({ toolCallId: 'c', name: 'n', content: 'Sunny' })))).toBe(
      '{"toolCallId":"c","name":"n","content":"Sunny","role":"tool","status":"success"}',
    );
  });

  it('drops unknown fields of a part, keeps every known one', () => {
    const read = messageFromJSON({
      role: 'user',
      content: [
        { type: 'text', text: 'a', cache: true },
        { type: 'file', data: 'JVBE', mediaType: 'application/pdf', filename: 'f.pdf', size: 3 },
      ],
    });
    expect(read.content).toEqual([
      { type: 'text', text: 'a' },
      { type: 'file', data: 'JVBE', mediaType: 'application/pdf', filename: 'f.pdf' },
    ]);
  });

  it.each([
    ['an unknown part type', { type: 'audio', data: 'AAAA' }, ['content', 0, 'type']],
    ['a text part without text', { type: 'text' }, ['content', 0, 'text']],
    ['image bytes that are not base64', { type: 'image', data: 'not base64!' }, ['content', 0, 'data']],
    ['an empty data', { type: 'image', data: '' }, ['content', 0, 'data']],
    ['a blob: URL, gone after a reload', { type: 'image', data: 'blob:https://a/1' }, ['content', 0, 'data']],
    ['a data: URL that is not base64', { type: 'image', data: 'data:text/plain,hi' }, ['content', 0, 'data']],
    ['image data that is bytes', { type: 'image', data: [1, 2] }, ['content', 0, 'data']],
    ['a file without a media type', { type: 'file', data: 'JVBE' }, ['content', 0, 'mediaType']],
    [
      'a media type that is not type/subtype',
      { type: 'image', data: 'AAAA', mediaType: 'png' },
      ['content', 0, 'mediaType'],
    ],
    [
      'a filename that is not a string',
      { type: 'file', data: 'JVBE', mediaType: 'application/pdf', filename: 1 },
      ['content', 0, 'filename'],
    ],
  ])('refuses %s, pointing at it', (_what, bad, path) => {
    const result = safeMessageFromJSON({ role: 'user', content: [bad] });
    expect(result.success).toBe(false);
    if (result.success) return;
    expect(result.error.issues.map((i) => i.path)).toEqual([path]);
    expect(() =>
      checkMessages([{ role: 'tool', toolCallId: 'c', name: 'n', status: 'success', content: [bad] }]),
    ).toThrow(MessageValidationError);
  });

  it('parts are for users and tools: a system or AI message keeps a string', () => {
    expect(safeMessageFromJSON({ role: 'system', content: [{ type: 'text', text: 'x' }] }).success).toBe(false);
    expect(
      safeMessageFromJSON({
        role: 'assistant',
        content: [{ type: 'text', text: 'x' }],
        toolCalls: [],
        invalidToolCalls: [],
      }).success,
    ).toBe(false);
  });

  it('the constructors check the parts', () => {
    expect(() => userMessage([{ type: 'image', data: 'nope nope' } as ContentPart])).toThrow(
      /0\.data: Invalid data: it is neither base64/,
    );
    expect(() => toolMessage({ toolCallId: 'c', name: 'n', content: [{ type: 'video' } as never] })).toThrow(
      MessageValidationError,
    );
    expect(() => userMessage({} as never)).toThrow(TypeError);
    // A media type in lower case without parameters; an image's is an image type.
    expect(() => userMessage([{ type: 'image', data: 'iVBORw0K', mediaType: 'image/PNG' }])).toThrow(
      /0\.mediaType: Invalid media type 'image\/PNG'/,
    );
    expect(() => userMessage([{ type: 'image', data: 'JVBERi0x', mediaType: 'application/pdf' }])).toThrow(
      /Invalid media type 'application\/pdf' for an image/,
    );
  });
});

describe('textOf', () => {
  it('is the string itself, or the text parts joined by newlines', () => {
    expect(textOf('hi')).toBe('hi');
    expect(textOf(parts)).toBe('What is in this picture?\nAnd this report?');
    expect(textOf([{ type: 'image', data: PNG_BASE64 }])).toBe('');
    expect(textOf([])).toBe('');
  });
});
