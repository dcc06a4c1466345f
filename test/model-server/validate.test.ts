// The test server's request checks for image and file parts: what Moat's converters build passes,
// and a malformed part gets the provider's 400 message (its body shape comes from errorBody).
import { describe, expect, it } from 'vitest';
import { aiMessage, toolMessage, userMessage } from '../../src/messages/constructors';
import type { Message } from '../../src/messages/types';
import { toAnthropic } from '../../src/providers/anthropic';
import { toGemini } from '../../src/providers/gemini';
import { toOllama } from '../../src/providers/ollama';
import { toOpenAIChat } from '../../src/providers/openai-chat';
import { toOpenAIResponses } from '../../src/providers/openai-responses';
import { errorBody, requestProblem } from './validate';

type Obj = Record<string, unknown>;
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjcKJeLjz9MK';
const headers = { 'anthropic-version': '2023-06-01' };

const history: Message[] = [
  userMessage([
    { type: 'text', text: 'Look' },
    { type: 'image', data: PNG, mediaType: 'image/png' },
    { type: 'image', data: 'https://example.com/a.jpg', mediaType: 'image/jpeg' },
  ]),
  aiMessage({ toolCalls: [{ id: 'call_1', name: 'chart', args: {} }], stopReason: 'tool-calls' }),
  toolMessage({
    toolCallId: 'call_1',
    name: 'chart',
    content: [
      { type: 'text', text: 'drawn' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
    ],
  }),
];
const withPDF: Message[] = [
  userMessage([
    { type: 'text', text: 'Summarise' },
    { type: 'file', data: PDF, mediaType: 'application/pdf', filename: 'r.pdf' },
  ]),
];

const chat = (messages: unknown[]): Obj => ({ model: 'm', stream: true, messages });
const responses = (input: unknown[]): Obj => ({ model: 'm', stream: true, input });
const claude = (messages: unknown[]): Obj => ({ model: 'm', max_tokens: 10, messages });
const gemini = (contents: unknown[]): Obj => ({ contents });
const ollama = (messages: unknown[]): Obj => ({ model: 'm', messages });

describe("what Moat's converters build passes", () => {
  it.each([
    ['images, in a user message and a tool result', history],
    ['a PDF', withPDF],
  ])('%s, on every format but Ollama', (_what, messages) => {
    expect(requestProblem('openai-chat', chat(toOpenAIChat(messages)), {})).toBeUndefined();
    expect(requestProblem('openai-responses', responses(toOpenAIResponses(messages)), {})).toBeUndefined();
    expect(requestProblem('anthropic', claude(toAnthropic(messages).messages), headers)).toBeUndefined();
    expect(requestProblem('gemini', gemini(toGemini(messages).contents), {})).toBeUndefined();
  });

  it('Ollama: images in a user message, and after tool results', () => {
    const local = history.map((m, i) =>
      i === 0
        ? userMessage([
            { type: 'text', text: 'Look' },
            { type: 'image', data: PNG, mediaType: 'image/png' },
          ])
        : m,
    );
    expect(requestProblem('ollama', ollama(toOllama(local)), {})).toBeUndefined();
  });
});

describe('a malformed part is refused in the provider words', () => {
  const user = (content: unknown) => [{ role: 'user', content }];

  it.each([
    [
      'an unknown part type',
      [{ type: 'image', image_url: { url: 'https://x/a.png' } }],
      "Invalid value: 'image'. Supported values are: 'text', 'image_url', 'input_audio', 'file'.",
    ],
    [
      'an image URL that is neither a URL nor an image data URL',
      [{ type: 'image_url', image_url: { url: PNG } }],
      "Invalid 'messages[0].content[0].image_url.url': expected a URL or a base64 data URL of a PNG, JPEG, GIF or WebP image.",
    ],
    [
      'a PDF as an image',
      [{ type: 'image_url', image_url: { url: `data:application/pdf;base64,${PDF}` } }],
      "Invalid 'messages[0].content[0].image_url.url': expected a URL or a base64 data URL of a PNG, JPEG, GIF or WebP image.",
    ],
    [
      'file data without its data: prefix',
      [{ type: 'file', file: { file_data: PDF, filename: 'r.pdf' } }],
      "Invalid 'messages[0].content[0].file.file_data': expected base64 file data as a data URL.",
    ],
    [
      'a file with nothing in it',
      [{ type: 'file', file: {} }],
      "Invalid 'messages[0].content[0].file': one of 'file_data' or 'file_id' is required.",
    ],
  ])('OpenAI Chat: %s', (_what, content, message) => {
    expect(requestProblem('openai-chat', chat(user(content)), {})).toBe(message);
  });

  it('OpenAI Chat: an image in a tool message', () => {
    const body = chat([
      { role: 'user', content: 'x' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'c', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c', content: [{ type: 'image_url', image_url: { url: 'https://x/a.png' } }] },
    ]);
    expect(requestProblem('openai-chat', body, {})).toBe("Invalid value: 'image_url'. Supported values are: 'text'.");
  });

  it.each([
    [
      'an input_image with no image',
      [{ type: 'input_image', detail: 'auto' }],
      "Invalid 'input[0].content[0]': one of 'image_url' or 'file_id' is required.",
    ],
    [
      'bare base64 as image_url',
      [{ type: 'input_image', image_url: PNG, detail: 'auto' }],
      "Invalid 'input[0].content[0].image_url': expected a fully qualified URL or a base64 image in a data URL.",
    ],
    [
      'a bad detail',
      [{ type: 'input_image', image_url: 'https://x/a.png', detail: 'max' }],
      "Invalid value for 'input[0].content[0].detail': 'max'.",
    ],
    [
      'an input_file with nothing in it',
      [{ type: 'input_file' }],
      "Invalid 'input[0].content[0]': one of 'file_data', 'file_id' or 'file_url' is required.",
    ],
    [
      'a Chat part in Responses',
      [{ type: 'image_url' }],
      "Invalid value: 'image_url'. Supported values are: 'input_text', 'input_image', 'input_file', 'output_text' and 'refusal'.",
    ],
  ])('OpenAI Responses: %s', (_what, content, message) => {
    expect(requestProblem('openai-responses', responses(user(content)), {})).toBe(message);
  });

  it('OpenAI Responses: a function output list with a malformed image', () => {
    const body = responses([
      { role: 'user', content: 'x' },
      { type: 'function_call', call_id: 'c', name: 'f', arguments: '{}' },
      { type: 'function_call_output', call_id: 'c', output: [{ type: 'input_image', image_url: 'nope' }] },
    ]);
    expect(requestProblem('openai-responses', body, {})).toBe(
      "Invalid 'input[2].output[0].image_url': expected a fully qualified URL or a base64 image in a data URL.",
    );
  });

  it.each([
    [
      'an SVG image',
      { type: 'image', source: { type: 'base64', media_type: 'image/svg+xml', data: PNG } },
      "messages.0.content.0.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'",
    ],
    [
      'image data that is not base64',
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: `data:image/png;base64,${PNG}` } },
      'messages.0.content.0.source.base64: invalid base64 data',
    ],
    [
      'a document that is not a PDF',
      { type: 'document', source: { type: 'base64', media_type: 'application/msword', data: PDF } },
      "messages.0.content.0.source.media_type: Input should be 'application/pdf'",
    ],
    [
      'an image URL that is not one',
      { type: 'image', source: { type: 'url', url: 'cat.png' } },
      'messages.0.content.0.source.url: Input should be a valid URL',
    ],
  ])('Anthropic: %s', (_what, block, message) => {
    expect(requestProblem('anthropic', claude(user([block])), headers)).toBe(message);
  });

  it('Anthropic: a tool_result holding a block it does not take', () => {
    const body = claude([
      { role: 'user', content: 'x' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't', name: 'f', input: {} }] },
      {
        role: 'user',
        content: [{ type: 'tool_result', tool_use_id: 't', content: [{ type: 'image_url', url: 'x' }] }],
      },
    ]);
    expect(requestProblem('anthropic', body, headers)).toBe(
      "messages.2.content.0.content.0.type: Input tag 'image_url' found using 'type' does not match any of the expected tags: 'text', 'image', 'search_result', 'document'",
    );
  });

  it.each([
    [
      'inline data without a MIME type',
      { inlineData: { data: PNG } },
      '* GenerateContentRequest.contents[0].parts[0].inline_data.mime_type: MIME type is required.',
    ],
    [
      'inline data that is a data: URL',
      { inlineData: { mimeType: 'image/png', data: `data:image/png;base64,${PNG}` } },
      '* GenerateContentRequest.contents[0].parts[0].inline_data.data: Invalid value (bytes), invalid base64 data.',
    ],
    [
      'file data without a URI',
      { fileData: { mimeType: 'image/png' } },
      '* GenerateContentRequest.contents[0].parts[0].file_data.file_uri: URI is required.',
    ],
    [
      'file data without a media type',
      { fileData: { fileUri: 'https://x/a.png' } },
      '* GenerateContentRequest.contents[0].parts[0].file_data.mime_type: MIME type is required.',
    ],
    [
      'a URL in a function response',
      { functionResponse: { name: 'f', response: {}, parts: [{ fileData: { fileUri: 'https://x/a.png' } }] } },
      '* GenerateContentRequest.contents[0].parts[0].function_response.parts[0].file_data: file_data is not supported in a function response.',
    ],
  ])('Gemini: %s', (_what, part, message) => {
    expect(requestProblem('gemini', gemini([{ role: 'user', parts: [part] }]), {})).toBe(message);
  });

  it('Ollama: an image as a data: URL, or not a string', () => {
    expect(
      requestProblem('ollama', ollama([{ role: 'user', content: 'x', images: [`data:image/png;base64,${PNG}`] }]), {}),
    ).toBe('illegal base64 data at input byte 4');
    expect(requestProblem('ollama', ollama([{ role: 'user', content: 'x', images: [[1, 2]] }]), {})).toMatch(
      /cannot unmarshal/,
    );
  });

  it("the 400 comes in each provider's error body", () => {
    expect(errorBody('anthropic', 400, 'm')).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'm' },
    });
    expect(errorBody('gemini', 400, 'm')).toEqual({ error: { code: 400, message: 'm', status: 'INVALID_ARGUMENT' } });
    expect(errorBody('ollama', 400, 'm')).toEqual({ error: 'm' });
    expect(errorBody('openai-chat', 400, 'm')).toMatchObject({
      error: { type: 'invalid_request_error', message: 'm' },
    });
  });
});

describe('a call and its result go together', () => {
  const call = aiMessage({ toolCalls: [{ id: 'call_9', name: 'add', args: {} }], stopReason: 'tool-calls' });
  const result = toolMessage({ toolCallId: 'call_9', name: 'add', content: '2' });
  const bodies = (messages: Message[]): Record<string, Obj> => ({
    'openai-chat': { model: 'm', stream: true, messages: toOpenAIChat(messages) },
    'openai-responses': { model: 'm', stream: true, input: toOpenAIResponses(messages) },
    anthropic: { model: 'm', max_tokens: 9, ...toAnthropic(messages) },
    gemini: { ...toGemini(messages) },
  });

  it.each(['openai-chat', 'openai-responses', 'anthropic', 'gemini'] as const)(
    '%s refuses a call without its result, and a result without its call',
    (format) => {
      const check = (messages: Message[]) => requestProblem(format, bodies(messages)[format] as Obj, headers);
      expect(check([userMessage('hi'), call, result, userMessage('more')])).toBeUndefined();
      expect(check([userMessage('hi'), call, userMessage('more')])).toMatch(/call_9|function call|function response/);
      expect(check([userMessage('hi'), call])).toMatch(/call_9|function call|function response/);
      expect(check([userMessage('hi'), result, userMessage('more')])).toBeDefined();
    },
  );
});
