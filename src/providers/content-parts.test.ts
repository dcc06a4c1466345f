// Each converter's request for images and files, checked against the provider's own request
// types: every expected value below is typed by the official SDK (openai, @anthropic-ai/sdk,
// @google/genai, ollama), so a shape the provider does not document fails to compile.
import type { MessageParam } from '@anthropic-ai/sdk/resources/messages';
import type { Content as GeminiContent } from '@google/genai';
import type { Message as OllamaMessage } from 'ollama';
import type { ChatCompletionMessageParam } from 'openai/resources/chat/completions';
import type { ResponseInputItem } from 'openai/resources/responses/responses';
import { describe, expect, it } from 'vitest';
import { UnknownMediaTypeError } from '../errors/unknown-media-type-error';
import { UnsupportedContentError } from '../errors/unsupported-content-error';
import { aiMessage, toolMessage, userMessage } from '../messages/constructors';
import type { ContentPart, Message } from '../messages/types';
import { toAnthropic } from './anthropic';
import { toGemini } from './gemini';
import { toOllama } from './ollama';
import { toOpenAIChat } from './openai-chat';
import { toOpenAIResponses } from './openai-responses';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjcKJeLjz9MK';
const URL_IMAGE = 'https://example.com/cat.jpg';
const URL_PDF = 'https://example.com/report.pdf';

const ask = userMessage([
  { type: 'text', text: 'What is in this picture?' },
  { type: 'image', data: PNG, mediaType: 'image/png' },
  { type: 'image', data: URL_IMAGE, mediaType: 'image/jpeg' },
  { type: 'file', data: PDF, mediaType: 'application/pdf', filename: 'report.pdf' },
]);
const call = { id: 'call_1', name: 'chart', args: { q: 'sales' } };
const asked = aiMessage({ toolCalls: [call], stopReason: 'tool-calls' });
const drawn = toolMessage({
  toolCallId: 'call_1',
  name: 'chart',
  content: [
    { type: 'text', text: 'The chart.' },
    { type: 'image', data: `data:image/png;base64,${PNG}` },
  ],
});
const toolTurn: Message[] = [userMessage('Draw the sales'), asked, drawn];

describe('OpenAI Chat', () => {
  it('a user message: text, image_url (a data: URL or the URL), file (file_data as a data: URL, filename)', () => {
    const expected: ChatCompletionMessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
          { type: 'image_url', image_url: { url: URL_IMAGE } },
          { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' } },
        ],
      },
    ];
    expect(toOpenAIChat([ask])).toEqual(expected);
  });

  it('a file without a name gets one (inline file data goes with a filename)', () => {
    const [m] = toOpenAIChat([userMessage([{ type: 'file', data: PDF, mediaType: 'application/pdf' }])]);
    expect(m?.content).toEqual([
      { type: 'file', file: { file_data: `data:application/pdf;base64,${PDF}`, filename: 'attachment-1.pdf' } },
    ]);
  });

  it("a tool result's image: the tool message says where it is, a user message after the run of results shows it", () => {
    const second = toolMessage({ toolCallId: 'call_2', name: 'time', content: 'noon' });
    const two = aiMessage({ toolCalls: [call, { ...call, id: 'call_2', name: 'time' }] });
    const expected: ChatCompletionMessageParam[] = [
      { role: 'user', content: 'Draw the sales' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'chart', arguments: '{"q":"sales"}' } },
          { id: 'call_2', type: 'function', function: { name: 'time', arguments: '{"q":"sales"}' } },
        ],
      },
      {
        role: 'tool',
        tool_call_id: 'call_1',
        content: 'The chart.\n(The images or files it returned follow in a user message.)',
      },
      { role: 'tool', tool_call_id: 'call_2', content: 'noon' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What the tool chart returned (call call_1):' },
          { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG}` } },
        ],
      },
    ];
    expect(toOpenAIChat([userMessage('Draw the sales'), two, drawn, second])).toEqual(expected);
  });

  it('a document that is not a PDF is refused (Chat Completions reads PDFs only)', () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const m = userMessage([{ type: 'file', data: PDF, mediaType: docx }]);
    expect(() => toOpenAIChat([m])).toThrow(UnsupportedContentError);
  });

  it('a file at a URL is refused before anything is sent', () => {
    const m = userMessage([{ type: 'file', data: URL_PDF, mediaType: 'application/pdf' }]);
    expect(() => toOpenAIChat([m])).toThrow(UnsupportedContentError);
    expect(() => toOpenAIChat([m])).toThrow(
      `The openai-chat format cannot take a file part at ${URL_PDF} in a user message. It takes: files as base64 (file_data) or uploaded (file_id), not a URL`,
    );
  });
});

describe('OpenAI Responses', () => {
  it('a user message: input_text, input_image, input_file', () => {
    const expected: ResponseInputItem[] = [
      {
        role: 'user',
        content: [
          { type: 'input_text', text: 'What is in this picture?' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
          { type: 'input_image', image_url: URL_IMAGE, detail: 'auto' },
          { type: 'input_file', file_data: `data:application/pdf;base64,${PDF}`, filename: 'report.pdf' },
        ],
      },
    ];
    expect(toOpenAIResponses([ask])).toEqual(expected);
    const byURL = userMessage([{ type: 'file', data: URL_PDF, mediaType: 'application/pdf' }]);
    expect(toOpenAIResponses([byURL])).toEqual([
      { role: 'user', content: [{ type: 'input_file', file_url: URL_PDF }] },
    ]);
  });

  it('a tool result with an image: function_call_output with an output list', () => {
    const expected: ResponseInputItem[] = [
      { role: 'user', content: 'Draw the sales' },
      { type: 'function_call', call_id: 'call_1', name: 'chart', arguments: '{"q":"sales"}' },
      {
        type: 'function_call_output',
        call_id: 'call_1',
        output: [
          { type: 'input_text', text: 'The chart.' },
          { type: 'input_image', image_url: `data:image/png;base64,${PNG}`, detail: 'auto' },
        ],
      },
    ];
    expect(toOpenAIResponses(toolTurn)).toEqual(expected);
  });
});

describe('Anthropic', () => {
  it('a user message: text, image (base64 or url source), document (base64 PDF, titled)', () => {
    const expected: MessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is in this picture?' },
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
          { type: 'image', source: { type: 'url', url: URL_IMAGE } },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: PDF },
            title: 'report.pdf',
          },
        ],
      },
    ];
    expect(toAnthropic([ask])).toEqual({ messages: expected });
  });

  it('a PDF at a URL is a document too; a text file goes as text that names it', () => {
    const text = Buffer.from('Dear diary').toString('base64');
    const expected: MessageParam[] = [
      {
        role: 'user',
        content: [
          { type: 'document', source: { type: 'url', url: URL_PDF } },
          { type: 'text', text: '<file name="diary.txt" type="text/plain">\nDear diary\n</file>' },
        ],
      },
    ];
    const m = userMessage([
      { type: 'file', data: URL_PDF, mediaType: 'application/pdf' },
      { type: 'file', data: text, mediaType: 'text/plain', filename: 'diary.txt' },
    ]);
    expect(toAnthropic([m])).toEqual({ messages: expected });
  });

  it('a tool result with an image: tool_result content blocks (is_error kept)', () => {
    const expected: MessageParam[] = [
      { role: 'user', content: [{ type: 'text', text: 'Draw the sales' }] },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'call_1', name: 'chart', input: { q: 'sales' } }] },
      {
        role: 'user',
        content: [
          {
            type: 'tool_result',
            tool_use_id: 'call_1',
            content: [
              { type: 'text', text: 'The chart.' },
              { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
            ],
          },
        ],
      },
    ];
    expect(toAnthropic(toolTurn)).toEqual({ messages: expected });
    const failed = toolMessage({ ...drawn, status: 'error' });
    expect(toAnthropic([userMessage('x'), asked, failed]).messages[2]?.content).toMatchObject([{ is_error: true }]);
  });

  it('refuses an image type or a document it does not read', () => {
    const svg = userMessage([{ type: 'image', data: 'PHN2Zz4=', mediaType: 'image/svg+xml' }]);
    expect(() => toAnthropic([svg])).toThrow(
      'The anthropic format cannot take an image part (image/svg+xml) in a user message. It takes: images of type image/jpeg, image/png, image/gif, image/webp',
    );
    const docx = toolMessage({
      toolCallId: 'call_1',
      name: 'chart',
      content: [{ type: 'file', data: 'UEsDBA==', mediaType: 'application/vnd.ms-word' }],
    });
    const error = (() => {
      try {
        toAnthropic([userMessage('x'), asked, docx]);
      } catch (e) {
        return e;
      }
    })();
    expect(error).toBeInstanceOf(UnsupportedContentError);
    expect(error).toMatchObject({
      provider: 'anthropic',
      where: 'a tool result',
      part: 'a file part (application/vnd.ms-word)',
    });
  });
});

describe('Gemini', () => {
  it('a user message: text, inlineData (base64), fileData (a URL)', () => {
    const expected: GeminiContent[] = [
      {
        role: 'user',
        parts: [
          { text: 'What is in this picture?' },
          { inlineData: { mimeType: 'image/png', data: PNG } },
          { fileData: { mimeType: 'image/jpeg', fileUri: URL_IMAGE } },
          { inlineData: { mimeType: 'application/pdf', data: PDF } },
        ],
      },
    ];
    expect(toGemini([ask])).toEqual({ contents: expected });
  });

  it("a tool result with an image: a multimodal function response (its parts' inlineData, named)", () => {
    const expected: GeminiContent[] = [
      { role: 'user', parts: [{ text: 'Draw the sales' }] },
      { role: 'model', parts: [{ functionCall: { name: 'chart', args: { q: 'sales' } } }] },
      {
        role: 'user',
        parts: [
          {
            functionResponse: {
              name: 'chart',
              response: { result: 'The chart.' },
              parts: [{ inlineData: { mimeType: 'image/png', data: PNG, displayName: 'call_1-1' } }],
            },
          },
        ],
      },
    ];
    expect(toGemini(toolTurn)).toEqual({ contents: expected });
  });

  it('refuses an image URL whose media type is not given (fileData needs it)', () => {
    const untyped = userMessage([{ type: 'image', data: URL_IMAGE }]);
    expect(() => toGemini([untyped])).toThrow(UnsupportedContentError);
  });

  it('refuses a URL in a function response (inline data only)', () => {
    const byURL = toolMessage({ toolCallId: 'call_1', name: 'chart', content: [{ type: 'image', data: URL_IMAGE }] });
    expect(() => toGemini([userMessage('x'), asked, byURL])).toThrow(UnsupportedContentError);
  });
});

describe('Ollama', () => {
  it('a user message: the text, and the images as base64 (a data: URL stripped)', () => {
    const m = userMessage([
      { type: 'text', text: 'What is this?' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
      { type: 'image', data: `data:image/png;base64,${PNG}` },
    ]);
    const expected: OllamaMessage[] = [{ role: 'user', content: 'What is this?', images: [PNG, PNG] }];
    expect(toOllama([m])).toEqual(expected);
  });

  it("a tool result's images: the tool message says where they are, a user message after the results carries them", () => {
    const expected: OllamaMessage[] = [
      { role: 'user', content: 'Draw the sales' },
      { role: 'assistant', content: '', tool_calls: [{ function: { name: 'chart', arguments: { q: 'sales' } } }] },
      {
        role: 'tool',
        content: 'The chart.\n(The images or files it returned follow in a user message.)',
        tool_name: 'chart',
      },
      { role: 'user', content: 'What the tool chart returned (call call_1): 1 image(s).', images: [PNG] },
    ];
    expect(toOllama(toolTurn)).toEqual(expected);
  });

  it('refuses documents and image URLs, naming the part', () => {
    expect(() => toOllama([ask])).toThrow(
      `The ollama format cannot take an image part at ${URL_IMAGE} in a user message. It takes: images as base64 only: it fetches no URLs`,
    );
    const pdf = userMessage([{ type: 'file', data: PDF, mediaType: 'application/pdf' }]);
    expect(() => toOllama([pdf])).toThrow(
      'The ollama format cannot take a file part (application/pdf) in a user message. It takes: images only (base64, in `images`): no documents',
    );
  });
});

describe('every converter', () => {
  const converters = [toOpenAIChat, toOpenAIResponses, toAnthropic, toGemini, toOllama];

  it('sends a string content exactly as before', () => {
    const plain = [userMessage('hi'), asked, toolMessage({ toolCallId: 'call_1', name: 'chart', content: 'drawn' })];
    const asParts = [
      userMessage([{ type: 'text', text: 'hi' }]),
      asked,
      toolMessage({ toolCallId: 'call_1', name: 'chart', content: [{ type: 'text', text: 'drawn' }] }),
    ];
    expect(toOpenAIChat(plain)[0]).toEqual({ role: 'user', content: 'hi' });
    expect(toOpenAIResponses(plain)[2]).toEqual({ type: 'function_call_output', call_id: 'call_1', output: 'drawn' });
    // Text parts alone read as the text (a user message in Chat and Responses keeps its text part).
    for (const to of [toAnthropic, toGemini, toOllama]) expect(to(asParts)).toEqual(to(plain));
    expect(toOpenAIChat(asParts).slice(1)).toEqual(toOpenAIChat(plain).slice(1));
    expect(toOpenAIResponses(asParts).slice(1)).toEqual(toOpenAIResponses(plain).slice(1));
  });

  it('a text-like file (CSV, Markdown, JSON) goes as a text part that names it, even where documents are refused', () => {
    const csv = Buffer.from('a,b\n1,2').toString('base64');
    const m = userMessage([
      { type: 'text', text: 'Sum column b' },
      { type: 'file', data: csv, mediaType: 'text/csv', filename: 'n.csv' },
    ]);
    const text = '<file name="n.csv" type="text/csv">\na,b\n1,2\n</file>';
    expect(toOpenAIChat([m])[0]?.content).toEqual([
      { type: 'text', text: 'Sum column b' },
      { type: 'text', text },
    ]);
    expect(toOpenAIResponses([m])[0]?.content).toEqual([
      { type: 'input_text', text: 'Sum column b' },
      { type: 'input_text', text },
    ]);
    expect(toGemini([m]).contents[0]?.parts).toEqual([{ text: 'Sum column b' }, { text }]);
    expect(toOllama([m])).toEqual([{ role: 'user', content: `Sum column b\n${text}` }]);
  });

  it('leaves out empty text parts (Anthropic refuses them)', () => {
    const m = userMessage([
      { type: 'text', text: '' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
    ]);
    expect(toAnthropic([m]).messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
    ]);
  });

  it("an unnamed file is named by its type's usual extension", () => {
    const docx = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';
    const m = userMessage([{ type: 'file', data: PDF, mediaType: docx }]);
    expect(toOpenAIResponses([m])[0]?.content).toEqual([
      { type: 'input_file', file_data: `data:${docx};base64,${PDF}`, filename: 'attachment-1.docx' },
    ]);
  });

  it('an image of a type no byte tells, and none given, is an UnknownMediaTypeError', () => {
    const m = userMessage([{ type: 'image', data: 'AAAAAAAAAAAA' } as ContentPart]);
    for (const to of converters) expect(() => to([m])).toThrow(UnknownMediaTypeError);
  });
});
