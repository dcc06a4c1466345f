import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { fixtureJSON, hasFixtures } from '../../test/fixtures';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { MessageValidationError } from '../errors/message-validation-error';
import { aiMessage, systemMessage, toolMessage, userMessage } from '../messages/constructors';
import type { Message } from '../messages/types';
import { fromAnthropic, toAnthropic, toAnthropicTools } from './anthropic';
import { fromGemini, toGemini, toGeminiTools } from './gemini';
import { fromOllama, toOllama, toOllamaTools } from './ollama';
import { fromOpenAIChat, toOpenAIChat, toOpenAITools } from './openai-chat';
import { fromOpenAIResponses, toOpenAIResponses, toOpenAIResponsesTools } from './openai-responses';
import { strictModeProblems, type ToolSpec, validateToolSpec } from './tool-spec';
import { toolSpec } from './zod-spec';

const weatherSpec: ToolSpec = {
  name: 'weather',
  description: 'Weather in a city.',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
};

describe('fromOpenAIChat', () => {
  it('reads text, calls, stop reason, usage and reasoning', () => {
    const ai = fromOpenAIChat({
      id: 'chatcmpl-1',
      model: 'gpt-x',
      choices: [
        {
          finish_reason: 'tool_calls',
          message: {
            role: 'assistant',
            content: 'Checking.',
            reasoning_content: 'Think.',
            tool_calls: [
              { id: 'a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
              { id: 'b', type: 'function', function: { name: 'weather', arguments: '{"city":' } },
              { id: 'c', type: 'function', function: { name: 'time', arguments: '' } },
              { type: 'function', function: { name: 'x', arguments: 'not json' } },
            ],
          },
        },
      ],
      usage: {
        prompt_tokens: 10,
        completion_tokens: 5,
        total_tokens: 15,
        completion_tokens_details: { reasoning_tokens: 2 },
      },
    });
    expect(ai.content).toBe('Checking.');
    expect(ai.reasoning).toBe('Think.');
    expect(ai.stopReason).toBe('tool-calls');
    expect(ai.id).toBe('chatcmpl-1');
    expect(ai.usage).toEqual({ inputTokens: 10, outputTokens: 5, totalTokens: 15, reasoningTokens: 2 });
    expect(ai.toolCalls).toEqual([
      { id: 'a', name: 'weather', args: { city: 'Paris' } },
      { id: 'c', name: 'time', args: {} },
    ]);
    expect(ai.invalidToolCalls).toEqual([
      { id: 'b', name: 'weather', args: '{"city":', error: expect.stringContaining('incomplete JSON') },
      { id: 'call_3', name: 'x', args: 'not json', error: expect.stringContaining('not valid JSON') },
    ]);
  });

  it('maps finish reasons and accepts a bare message', () => {
    const stop = (finish_reason: string) =>
      fromOpenAIChat({ choices: [{ finish_reason, message: { content: 'x' } }] }).stopReason;
    expect(stop('stop')).toBe('end');
    expect(stop('length')).toBe('length');
    expect(stop('content_filter')).toBe('content-filter');
    expect(stop('weird')).toBe('other');
    expect(
      fromOpenAIChat({
        role: 'assistant',
        content: [
          { type: 'text', text: 'a' },
          { type: 'text', text: 'b' },
        ],
      }).content,
    ).toBe('ab');
  });

  it('never throws on garbage', () => {
    for (const junk of [
      null,
      undefined,
      42,
      'x',
      [],
      { choices: 'no' },
      { choices: [null] },
      { choices: [{ message: { tool_calls: [null, 1] } }] },
    ]) {
      expect(() => fromOpenAIChat(junk)).not.toThrow();
    }
    expect(fromOpenAIChat({ choices: [{ message: { tool_calls: [null] } }] }).invalidToolCalls).toHaveLength(1);
  });

  it('keeps tool names like __proto__ and toString as plain data, and makes repeated ids unique', () => {
    const ai = fromOpenAIChat({
      choices: [
        {
          message: {
            tool_calls: [
              { id: 'same', function: { name: '__proto__', arguments: '{"__proto__":{"x":1}}' } },
              { id: 'same', function: { name: 'toString', arguments: '{}' } },
            ],
          },
        },
      ],
    });
    expect(ai.toolCalls.map((c) => [c.id, c.name])).toEqual([
      ['same', '__proto__'],
      ['same_1', 'toString'],
    ]);
    expect(Object.getPrototypeOf(ai.toolCalls[0]?.args)).toBe(Object.prototype);
    expect(({} as { x?: number }).x).toBeUndefined();
  });
});

describe('fromOpenAIResponses / fromAnthropic / fromGemini / fromOllama', () => {
  it('reads a Responses output', () => {
    const ai = fromOpenAIResponses({
      id: 'resp_1',
      status: 'completed',
      output: [
        { type: 'reasoning', summary: [{ type: 'summary_text', text: 'Hmm.' }] },
        { type: 'message', content: [{ type: 'output_text', text: 'Hello' }] },
        { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'weather', arguments: '{"city":"Rome"}' },
      ],
      usage: { input_tokens: 3, output_tokens: 4, total_tokens: 7 },
    });
    expect(ai).toMatchObject({ content: 'Hello', reasoning: 'Hmm.', stopReason: 'tool-calls', id: 'resp_1' });
    expect(ai.toolCalls).toEqual([{ id: 'call_1', name: 'weather', args: { city: 'Rome' } }]);
    expect(
      fromOpenAIResponses({ status: 'incomplete', incomplete_details: { reason: 'max_output_tokens' }, output: [] })
        .stopReason,
    ).toBe('length');
  });

  it('reads an Anthropic message, keeping signed thinking for the round trip', () => {
    const ai = fromAnthropic({
      id: 'msg_1',
      stop_reason: 'tool_use',
      content: [
        { type: 'thinking', thinking: 'Let me see.', signature: 'sig' },
        { type: 'text', text: 'On it.' },
        { type: 'tool_use', id: 'toolu_1', name: 'weather', input: { city: 'Oslo' } },
        { type: 'tool_use', id: 'toolu_2', name: 'bad', input: 'nope' },
      ],
      usage: { input_tokens: 10, cache_read_input_tokens: 90, output_tokens: 5 },
    });
    expect(ai.content).toBe('On it.');
    expect(ai.reasoning).toBe('Let me see.');
    expect(ai.toolCalls).toEqual([{ id: 'toolu_1', name: 'weather', args: { city: 'Oslo' } }]);
    expect(ai.invalidToolCalls).toEqual([
      { id: 'toolu_2', name: 'bad', args: '"nope"', error: 'The arguments must be a JSON object, got a string.' },
    ]);
    expect(ai.usage).toEqual({ inputTokens: 100, outputTokens: 5, totalTokens: 105, cachedInputTokens: 90 });
    expect(ai.metadata).toEqual({
      anthropic: { thinking: [{ type: 'thinking', thinking: 'Let me see.', signature: 'sig' }] },
    });
  });

  it('reads Gemini parts with synthesized, unique ids and thought signatures', () => {
    const ai = fromGemini({
      responseId: 'r1',
      candidates: [
        {
          finishReason: 'STOP',
          content: {
            parts: [
              { text: 'thinking…', thought: true },
              { text: 'Calling.', thoughtSignature: 'tsig' },
              { functionCall: { name: 'weather', args: { city: 'Lima' } }, thoughtSignature: 'sig0' },
              { functionCall: { name: 'weather', args: { city: 'Quito' } } },
              { functionCall: { name: 'time' } },
            ],
          },
        },
      ],
      usageMetadata: { promptTokenCount: 5, candidatesTokenCount: 7, thoughtsTokenCount: 3, totalTokenCount: 15 },
    });
    expect(ai.toolCalls).toEqual([
      { id: 'call_0', name: 'weather', args: { city: 'Lima' } },
      { id: 'call_1', name: 'weather', args: { city: 'Quito' } },
      { id: 'call_2', name: 'time', args: {} },
    ]);
    expect(ai).toMatchObject({ content: 'Calling.', reasoning: 'thinking…', stopReason: 'tool-calls' });
    expect(ai.usage).toEqual({ inputTokens: 5, outputTokens: 10, totalTokens: 15, reasoningTokens: 3 });
    expect(ai.metadata?.gemini).toEqual({ thoughtSignatures: { call_0: 'sig0' }, textThoughtSignature: 'tsig' });
  });

  it('reads Ollama calls, each its own call even when they share index 0', () => {
    const ai = fromOllama({
      model: 'llama3',
      done: true,
      done_reason: 'stop',
      message: {
        role: 'assistant',
        content: '',
        tool_calls: [
          { function: { index: 0, name: 'weather', arguments: { city: 'Rome' } } },
          { function: { index: 0, name: 'weather', arguments: { city: 'Milan' } } },
        ],
      },
      prompt_eval_count: 12,
      eval_count: 8,
    });
    expect(ai.toolCalls).toEqual([
      { id: 'call_0', name: 'weather', args: { city: 'Rome' } },
      { id: 'call_1', name: 'weather', args: { city: 'Milan' } },
    ]);
    expect(ai.stopReason).toBe('tool-calls');
    expect(ai.usage).toEqual({ inputTokens: 12, outputTokens: 8, totalTokens: 20 });
  });
});

describe.skipIf(!hasFixtures)('whole recorded responses (../shared/fixtures)', () => {
  it.each([
    [
      'responses/openai-chat/alibaba-tool-call.json',
      fromOpenAIChat,
      'call_962bfd2ab8f54b89a1161356',
      'weather',
      { location: 'San Francisco' },
    ],
    ['responses/openai-chat/groq-tool-call.json', fromOpenAIChat, 'ax9fskhev', 'weather', {}],
    [
      'responses/openai-chat/xai-tool-call.json',
      fromOpenAIChat,
      'call_93562515',
      'weather',
      { location: 'San Francisco' },
    ],
    [
      'responses/openai-responses/lmstudio-tool-call.1.json',
      fromOpenAIResponses,
      'call_2866856768160095',
      'weather',
      { location: 'San Francisco' },
    ],
    [
      'responses/anthropic/anthropic-tool-no-args.json',
      fromAnthropic,
      'toolu_01LRmxn9vGM1d2DZSDBowdZ1',
      'updateIssueList',
      {},
    ],
    ['responses/gemini/google-tool-call.json', fromGemini, 'call_0', 'weather', { location: 'San Francisco' }],
  ] as const)('%s', (file, from, id, name, args) => {
    const ai = from(fixtureJSON(file));
    expect(ai.toolCalls).toEqual([{ id, name, args }]);
    expect(ai.invalidToolCalls).toEqual([]);
    expect(ai.stopReason).toBe('tool-calls');
  });

  it('reads the four calls of the Anthropic json tool', () => {
    const ai = fromAnthropic(fixtureJSON('responses/anthropic/anthropic-json-tool.1.json'));
    expect(ai.toolCalls[0]?.args.elements).toHaveLength(4);
    expect(ai.toolCalls[0]?.args.elements).toContainEqual({ location: 'Berlin', temperature: -9, condition: 'snowy' });
  });
});

const history: Message[] = [
  systemMessage('Be brief.'),
  userMessage('Weather in Paris and Rome?'),
  aiMessage({
    content: 'Checking both.',
    toolCalls: [
      { id: 'call_a', name: 'weather', args: { city: 'Paris' } },
      { id: 'call_b', name: 'weather', args: { city: 'Rome' } },
    ],
    invalidToolCalls: [{ id: 'call_c', name: 'weather', args: '{"city":', error: 'incomplete' }],
    stopReason: 'tool-calls',
  }),
  toolMessage({ toolCallId: 'call_a', name: 'weather', content: 'Sunny' }),
  toolMessage({ toolCallId: 'call_b', name: 'weather', content: 'Rain' }),
  toolMessage({ toolCallId: 'call_c', name: 'weather', content: 'Bad arguments', status: 'error' }),
  userMessage('Thanks!'),
];

describe('history → requests', () => {
  it('toOpenAIChat', () => {
    expect(toOpenAIChat(history)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{"city":"Paris"}' } },
          { id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{"city":"Rome"}' } },
          { id: 'call_c', type: 'function', function: { name: 'weather', arguments: '{"city":' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_a', content: 'Sunny' },
      { role: 'tool', tool_call_id: 'call_b', content: 'Rain' },
      { role: 'tool', tool_call_id: 'call_c', content: 'Bad arguments' },
      { role: 'user', content: 'Thanks!' },
    ]);
    const ai = aiMessage({ toolCalls: [{ id: 'x', name: 'n', args: {} }], reasoning: 'why' });
    expect(toOpenAIChat([ai], { reasoningField: 'reasoning_content' })[0]).toMatchObject({
      content: null,
      reasoning_content: 'why',
    });
  });

  it('toOpenAIResponses', () => {
    expect(toOpenAIResponses(history)).toEqual([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Weather in Paris and Rome?' },
      { role: 'assistant', content: 'Checking both.' },
      { type: 'function_call', call_id: 'call_a', name: 'weather', arguments: '{"city":"Paris"}' },
      { type: 'function_call', call_id: 'call_b', name: 'weather', arguments: '{"city":"Rome"}' },
      { type: 'function_call', call_id: 'call_c', name: 'weather', arguments: '{"city":' },
      { type: 'function_call_output', call_id: 'call_a', output: 'Sunny' },
      { type: 'function_call_output', call_id: 'call_b', output: 'Rain' },
      { type: 'function_call_output', call_id: 'call_c', output: 'Bad arguments' },
      { role: 'user', content: 'Thanks!' },
    ]);
  });

  it('toAnthropic merges results and the next user text into one turn, is_error from status', () => {
    expect(toAnthropic(history)).toEqual({
      system: 'Be brief.',
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Weather in Paris and Rome?' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Checking both.' },
            { type: 'tool_use', id: 'call_a', name: 'weather', input: { city: 'Paris' } },
            { type: 'tool_use', id: 'call_b', name: 'weather', input: { city: 'Rome' } },
            { type: 'tool_use', id: 'call_c', name: 'weather', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_a', content: 'Sunny' },
            { type: 'tool_result', tool_use_id: 'call_b', content: 'Rain' },
            { type: 'tool_result', tool_use_id: 'call_c', content: 'Bad arguments', is_error: true },
            { type: 'text', text: 'Thanks!' },
          ],
        },
      ],
    });
  });

  it('toGemini sends functionResponse parts and keeps thought signatures', () => {
    const ai = fromGemini({
      candidates: [
        {
          finishReason: 'STOP',
          content: { parts: [{ functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' }] },
        },
      ],
    });
    const request = toGemini([
      systemMessage('Be brief.'),
      userMessage('Paris?'),
      ai,
      toolMessage({ toolCallId: 'call_0', name: 'weather', content: 'Sunny' }),
    ]);
    expect(request).toEqual({
      systemInstruction: { parts: [{ text: 'Be brief.' }] },
      contents: [
        { role: 'user', parts: [{ text: 'Paris?' }] },
        {
          role: 'model',
          parts: [{ functionCall: { name: 'weather', args: { city: 'Paris' } }, thoughtSignature: 'sig' }],
        },
        { role: 'user', parts: [{ functionResponse: { name: 'weather', response: { result: 'Sunny' } } }] },
      ],
    });
    const contents = toGemini(history).contents;
    expect(contents[2]).toEqual({
      role: 'user',
      parts: [
        { functionResponse: { name: 'weather', response: { result: 'Sunny' } } },
        { functionResponse: { name: 'weather', response: { result: 'Rain' } } },
        { functionResponse: { name: 'weather', response: { error: 'Bad arguments' } } },
      ],
    });
  });

  it('toAnthropic and toGemini leave out an empty answer, which those APIs refuse', () => {
    const history = [userMessage('hi'), aiMessage({ content: '' }), userMessage('hello?')];
    expect(toAnthropic(history).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'hi' },
          { type: 'text', text: 'hello?' },
        ],
      },
    ]);
    expect(toGemini(history).contents).toEqual([
      { role: 'user', parts: [{ text: 'hi' }] },
      { role: 'user', parts: [{ text: 'hello?' }] },
    ]);
  });

  it('toOllama', () => {
    expect(toOllama(history).slice(2, 4)).toEqual([
      {
        role: 'assistant',
        content: 'Checking both.',
        tool_calls: [
          { function: { name: 'weather', arguments: { city: 'Paris' } } },
          { function: { name: 'weather', arguments: { city: 'Rome' } } },
          { function: { name: 'weather', arguments: {} } },
        ],
      },
      { role: 'tool', content: 'Sunny', tool_name: 'weather' },
    ]);
  });

  it('every converter refuses a history with a bad entry, naming it, instead of writing a broken request', () => {
    const converters = { toOpenAIChat, toOpenAIResponses, toAnthropic, toGemini, toOllama };
    const resultWithoutCall = { role: 'tool', name: 'weather', content: 'Sunny', status: 'success' };
    for (const [name, convert] of Object.entries(converters)) {
      const bad = [userMessage('Weather?'), resultWithoutCall] as never;
      const error = (() => {
        try {
          convert(bad);
        } catch (e) {
          return e as MessageValidationError;
        }
      })();
      expect(error, name).toBeInstanceOf(MessageValidationError);
      expect(error?.issues[0]?.path, name).toEqual([1, 'toolCallId']);
      expect(
        () => convert([{ role: 'assistant', content: '', toolCalls: 'none', invalidToolCalls: [] }] as never),
        name,
      ).toThrow(/Invalid message: 0\.toolCalls/);
      expect(() => convert([null] as never), name).toThrow(MessageValidationError);
      expect(() => convert('hi' as never), name).toThrow("Expected a list of messages, got `'hi'` (string)");
    }
  });
});

describe('round trips: response → AIMessage → request keep ids, names and args', () => {
  const args = { city: 'Paris', days: [1, 2], nested: { a: null } };
  it('OpenAI chat', () => {
    const ai = fromOpenAIChat({
      choices: [
        {
          finish_reason: 'tool_calls',
          message: {
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'w', arguments: JSON.stringify(args) } }],
          },
        },
      ],
    });
    const sent = toOpenAIChat([ai])[0] as {
      tool_calls: { id: string; function: { name: string; arguments: string } }[];
    };
    expect(sent.tool_calls[0]?.id).toBe('c1');
    expect(sent.tool_calls[0]?.function.name).toBe('w');
    expect(JSON.parse(sent.tool_calls[0]?.function.arguments ?? '')).toEqual(args);
  });

  it('Responses', () => {
    const ai = fromOpenAIResponses({
      status: 'completed',
      output: [{ type: 'function_call', call_id: 'c1', name: 'w', arguments: JSON.stringify(args) }],
    });
    const [item] = toOpenAIResponses([ai]) as { call_id: string; name: string; arguments: string }[];
    expect([item?.call_id, item?.name, JSON.parse(item?.arguments ?? '')]).toEqual(['c1', 'w', args]);
  });

  it('Anthropic', () => {
    const ai = fromAnthropic({
      stop_reason: 'tool_use',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'w', input: args }],
    });
    expect(toAnthropic([ai]).messages[0]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1', name: 'w', input: args }],
    });
  });

  it('Gemini keeps the id the model gave', () => {
    const ai = fromGemini({ candidates: [{ content: { parts: [{ functionCall: { id: 'g1', name: 'w', args } }] } }] });
    expect(ai.toolCalls[0]?.id).toBe('g1');
    const { contents } = toGemini([ai, toolMessage({ toolCallId: 'g1', name: 'w', content: 'ok' })]);
    expect(contents[0]).toEqual({ role: 'model', parts: [{ functionCall: { id: 'g1', name: 'w', args } }] });
    expect(contents[1]).toEqual({
      role: 'user',
      parts: [{ functionResponse: { id: 'g1', name: 'w', response: { result: 'ok' } } }],
    });
  });

  it('Ollama', () => {
    const ai = fromOllama({ message: { tool_calls: [{ function: { name: 'w', arguments: args } }] } });
    expect(toOllama([ai])[0]).toEqual({
      role: 'assistant',
      content: '',
      tool_calls: [{ function: { name: 'w', arguments: args } }],
    });
  });
});

describe('tool specs', () => {
  it('toolSpec builds JSON Schema from zod in input mode: optional and defaulted fields stay optional', () => {
    const spec = toolSpec({
      name: 'search',
      description: 'Search.',
      input: z.object({
        q: z.string().describe('query'),
        limit: z.number().int().optional(),
        lang: z.string().default('en'),
      }),
    });
    expect(spec.inputSchema).toMatchObject({
      type: 'object',
      required: ['q'],
      properties: { q: { type: 'string', description: 'query' } },
    });
    expect(spec.inputSchema.$schema).toBeUndefined();
  });

  it.each(['', 'has space', 'x'.repeat(65), 'dots.not.ok', 'ünïcode'])(
    'rejects the name %j with a clear error',
    (name) => {
      expect(() => validateToolSpec({ ...weatherSpec, name })).toThrow(InvalidToolSpecError);
      expect(() => validateToolSpec({ ...weatherSpec, name })).toThrow(/a-z, A-Z, 0-9, _ or -/);
    },
  );

  it('rejects a schema that is not an object schema, and duplicate names', () => {
    expect(() => validateToolSpec({ ...weatherSpec, inputSchema: { type: 'string' } })).toThrow(
      /must describe an object/,
    );
    expect(() => toOpenAITools([weatherSpec, weatherSpec])).toThrow(/two tools have this name/);
    expect(() => toAnthropicTools(weatherSpec as never)).toThrow(/Expected a list of tool specs, got/);
  });

  it('converts to each provider shape', () => {
    expect(toOpenAITools([weatherSpec])).toEqual([
      {
        type: 'function',
        function: { name: 'weather', description: 'Weather in a city.', parameters: weatherSpec.inputSchema },
      },
    ]);
    expect(toOpenAIResponsesTools([weatherSpec])).toEqual([
      {
        type: 'function',
        name: 'weather',
        description: 'Weather in a city.',
        parameters: weatherSpec.inputSchema,
        strict: false,
      },
    ]);
    expect(toAnthropicTools([weatherSpec])).toEqual([
      { name: 'weather', description: 'Weather in a city.', input_schema: weatherSpec.inputSchema },
    ]);
    expect(toGeminiTools([weatherSpec])).toEqual([
      {
        functionDeclarations: [
          { name: 'weather', description: 'Weather in a city.', parametersJsonSchema: weatherSpec.inputSchema },
        ],
      },
    ]);
    expect(toOllamaTools([weatherSpec])).toEqual(toOpenAITools([weatherSpec]));
  });

  it("Gemini's older `parameters` field gets only the OpenAPI subset", () => {
    const spec = {
      ...weatherSpec,
      inputSchema: { ...weatherSpec.inputSchema, additionalProperties: false, $defs: {} },
    };
    const [tools] = toGeminiTools([spec], { schemaField: 'parameters' });
    expect(tools).toEqual({
      functionDeclarations: [
        { name: 'weather', description: 'Weather in a city.', parameters: weatherSpec.inputSchema },
      ],
    });
  });

  it('strict mode is checked, not silently rewritten', () => {
    expect(strictModeProblems(weatherSpec.inputSchema)).toEqual(['$: objects need additionalProperties: false']);
    expect(() => toOpenAITools([weatherSpec], { strict: true })).toThrow(/breaks OpenAI strict mode/);
    const strict = { ...weatherSpec, inputSchema: { ...weatherSpec.inputSchema, additionalProperties: false } };
    expect(toOpenAITools([strict], { strict: true })[0]).toMatchObject({ function: { strict: true } });
    const optional = toolSpec({ name: 'o', description: '', input: z.object({ a: z.string().optional() }).strict() });
    expect(strictModeProblems(optional.inputSchema)).toEqual([
      '$.a: is optional; strict mode wants it required (nullable instead)',
    ]);
  });
});
