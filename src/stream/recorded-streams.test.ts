// Every recorded stream in ../shared/fixtures, decoded; expectations written by reading the
// fixtures, not from our own output.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixture, fixtureJSON, hasFixtures } from '../../test/fixtures';
import { asSSE, decodeAll, partsOfType } from '../../test/stream-helpers';
import type { InvalidToolCall, StopReason, ToolCall, Usage } from '../messages/types';
import { fromAnthropic } from '../providers/anthropic';
import { fromGemini } from '../providers/gemini';
import { fromOpenAIChat } from '../providers/openai-chat';
import { fromOpenAIResponses } from '../providers/openai-responses';
import type { StreamFormat } from './stream-part';

interface Expected {
  file: string;
  format: StreamFormat;
  toolCalls: ToolCall[];
  invalidToolCalls?: (Omit<InvalidToolCall, 'error'> & { error: RegExp })[];
  stopReason: StopReason | undefined;
  text?: string | RegExp;
  reasoning?: RegExp;
  usage?: Usage;
  /** Diagnostic codes expected, in order. */
  errors?: string[];
  /** The whole (non-streamed) recording of the same call, if there is one. */
  whole?: string;
}

const SF = { location: 'San Francisco' };
const weather = (id: string, args: Record<string, unknown> = SF): ToolCall => ({ id, name: 'weather', args });

const recipe = {
  recipe: {
    ingredients: [
      { amount: '16 oz', name: 'Lasagna noodles' },
      { amount: '1 lb', name: 'Ground beef' },
      { amount: '15 oz', name: 'Ricotta cheese' },
      { amount: '3 cups', name: 'Mozzarella cheese' },
      { amount: '1/2 cup', name: 'Parmesan cheese' },
      { amount: '24 oz', name: 'Tomato sauce' },
      { amount: '1', name: 'Egg' },
      { amount: '2 cloves', name: 'Garlic' },
      { amount: '1 tsp', name: 'Salt' },
      { amount: '1/2 tsp', name: 'Pepper' },
    ],
    name: 'Lasagna',
    steps: [
      'Preheat oven to 375°F (190°C).',
      'Cook lasagna noodles according to package directions, drain and set aside.',
      'Brown ground beef with minced garlic in a skillet. Drain fat and stir in tomato sauce. Simmer for 10 minutes.',
      'In a bowl, mix ricotta cheese, egg, salt, pepper, and Parmesan cheese.',
      'In a 9x13 baking dish, spread a thin layer of meat sauce.',
      'Layer noodles, ricotta mixture, mozzarella, and meat sauce. Repeat.',
      'Top with remaining mozzarella cheese.',
      'Cover with foil and bake for 25 minutes.',
      'Remove foil and bake for another 25 minutes until golden.',
      'Let stand for 15 minutes before serving.',
    ],
  },
};

const cases: Expected[] = [
  {
    file: 'streams/openai-chat/alibaba-tool-call.chunks.txt',
    format: 'openai-chat',
    toolCalls: [weather('call_eee11723464a4b9eb8cee71d')],
    stopReason: 'tool-calls',
    usage: { inputTokens: 295, outputTokens: 22, totalTokens: 317, cachedInputTokens: 0 },
    whole: 'responses/openai-chat/alibaba-tool-call.json',
  },
  {
    file: 'streams/openai-chat/anthropic-fallback-tool-call.sse',
    format: 'openai-chat',
    toolCalls: [{ id: 'toolu_sanitized', name: 'read_file', args: { path: 'a.txt' } }],
    stopReason: 'tool-calls',
    text: 'Reading it.',
  },
  {
    file: 'streams/openai-chat/deepseek-tool-call.chunks.txt',
    format: 'openai-chat',
    toolCalls: [weather('call_00_ioIn7yN9p1ZOMNpDLwd4MgAF')],
    stopReason: 'tool-calls',
    reasoning: /^The user is asking for the weather in San Francisco\. I need to use the weather tool/,
    usage: { inputTokens: 339, outputTokens: 83, totalTokens: 422, cachedInputTokens: 320, reasoningTokens: 39 },
    whole: 'responses/openai-chat/deepseek-tool-call.json',
  },
  {
    file: 'streams/openai-chat/groq-tool-call.chunks.txt',
    format: 'openai-chat',
    toolCalls: [weather('tk85n1k4m', {})],
    stopReason: 'tool-calls',
    usage: { inputTokens: 210, outputTokens: 15, totalTokens: 225 },
    whole: 'responses/openai-chat/groq-tool-call.json',
  },
  {
    file: 'streams/openai-chat/mistral-incremental-tool-call.chunks.txt',
    format: 'openai-chat',
    toolCalls: [
      { id: 'chatcmpl-tool-9f149c74c42f265b', name: 'webSearchTool', args: { query: 'current Berlin weather' } },
    ],
    stopReason: 'tool-calls',
    usage: { inputTokens: 171, outputTokens: 14, totalTokens: 185, cachedInputTokens: 128 },
  },
  {
    file: 'streams/openai-chat/mistral-tool-call.chunks.txt',
    format: 'openai-chat',
    toolCalls: [weather('gSIMJiOkT')],
    stopReason: 'tool-calls',
    usage: { inputTokens: 124, outputTokens: 22, totalTokens: 146 },
    whole: 'responses/openai-chat/mistral-tool-call.json',
  },
  {
    file: 'streams/openai-chat/openai-compatible-xai-tool-call.chunks.txt',
    format: 'openai-chat',
    toolCalls: [weather('call_79382389')],
    stopReason: 'tool-calls',
    reasoning: /^First, the user is asking about the weather in San Francisco\./,
  },
  {
    file: 'streams/openai-chat/xai-tool-call.chunks.txt',
    format: 'openai-chat',
    toolCalls: [weather('call_55117580')],
    stopReason: 'tool-calls',
    reasoning: /^First, the user is$/,
    whole: 'responses/openai-chat/xai-tool-call.json',
  },
  {
    file: 'streams/openai-responses/azure-tool-call.1.chunks.txt',
    format: 'openai-responses',
    toolCalls: [weather('call_H5DxLSFnsGhiROnUiDHmgyc8')],
    stopReason: 'tool-calls',
    usage: { inputTokens: 45, outputTokens: 24, totalTokens: 69, cachedInputTokens: 0, reasoningTokens: 0 },
    whole: 'responses/openai-responses/azure-tool-call.1.json',
  },
  {
    file: 'streams/openai-responses/lmstudio-tool-call.1.chunks.txt',
    format: 'openai-responses',
    toolCalls: [weather('call_2025306790300011')],
    stopReason: 'tool-calls',
    text: "I'll get the current weather information for San Francisco for you.",
    reasoning: /^The user is asking for the weather in San Francisco\./,
    usage: { inputTokens: 182, outputTokens: 61, totalTokens: 243, cachedInputTokens: 2, reasoningTokens: 48 },
    whole: 'responses/openai-responses/lmstudio-tool-call.1.json',
  },
  {
    file: 'streams/openai-responses/lmstudio-tool-call.2.chunks.txt',
    format: 'openai-responses',
    toolCalls: [weather('call_3466696471230001')],
    stopReason: 'tool-calls',
    text: "I'll get the current weather information for San Francisco for you.",
  },
  {
    file: 'streams/openai-responses/parallel-tool-call-wrapper.1.chunks.txt',
    format: 'openai-responses',
    toolCalls: [
      {
        id: 'call_parallel',
        name: 'parallel',
        args: {
          tool_uses: [
            { recipient_name: 'functions.weather', parameters: { location: 'San Francisco' } },
            { recipient_name: 'functions.cityAttractions', parameters: { city: 'Rome' } },
          ],
        },
      },
    ],
    // Its first and last lines (response.created, response.completed) are cut-off JSON.
    stopReason: undefined,
    errors: ['malformed-event', 'malformed-event', 'truncated'],
  },
  {
    file: 'streams/anthropic/anthropic-clear-tool-uses.1.chunks.txt',
    format: 'anthropic',
    toolCalls: [],
    stopReason: 'end',
    text: /^\n\nHere's a comparison of the weather in both cities:/,
  },
  {
    file: 'streams/anthropic/anthropic-issue-11719-quoted-tool-input.chunks.txt',
    format: 'anthropic',
    toolCalls: [
      {
        id: 'toolu_01Cr31vcGoeeRgi3Eo5Ds8qN',
        name: 'website_update',
        args: {
          website_path: '/home/user/pace-landing',
          tasks: [
            {
              description:
                'Today you post every run to Strava, but Strava does not answer the question: "What should I do next after this run?". It is a great log, but it is not adaptive.',
              type: 'feature',
              passes: false,
            },
          ],
        },
      },
    ],
    stopReason: 'tool-calls',
  },
  {
    file: 'streams/anthropic/anthropic-json-other-tool.1.chunks.txt',
    format: 'anthropic',
    toolCalls: [weather('toolu_019Zvehfe1XQWweT1pm7okyt')],
    stopReason: 'tool-calls',
    usage: { inputTokens: 843, outputTokens: 28, totalTokens: 871, cachedInputTokens: 0, cacheWriteTokens: 0 },
    whole: 'responses/anthropic/anthropic-json-other-tool.1.json',
  },
  {
    file: 'streams/anthropic/anthropic-json-tool.1.chunks.txt',
    format: 'anthropic',
    toolCalls: [
      {
        id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
        name: 'json',
        args: { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] },
      },
    ],
    stopReason: 'tool-calls',
  },
  {
    file: 'streams/anthropic/anthropic-json-tool.2.chunks.txt',
    format: 'anthropic',
    toolCalls: [
      {
        id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
        name: 'json',
        args: { elements: [{ location: 'San Francisco', temperature: 58, condition: 'sunny' }] },
      },
    ],
    stopReason: 'tool-calls',
    text: "I'll invoke the JSON response tool.",
  },
  {
    file: 'streams/anthropic/anthropic-tool-no-args.chunks.txt',
    format: 'anthropic',
    toolCalls: [{ id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', args: {} }],
    stopReason: 'tool-calls',
    text: "I'll update the issue list for you.",
  },
  {
    file: 'streams/gemini/google-stream-no-args-tool-call.chunks.txt',
    format: 'gemini',
    toolCalls: [
      { id: 'call_0', name: 'read_theme', args: {} },
      { id: 'call_1', name: 'read_screen', args: { id: 'A' } },
      { id: 'call_2', name: 'read_screen', args: { id: 'B' } },
      { id: 'call_3', name: 'read_screen', args: { id: 'C' } },
    ],
    stopReason: 'tool-calls',
    reasoning: /^\*\*Processing User Requests\*\*/,
  },
  {
    file: 'streams/gemini/google-stream-tool-call-arguments.chunks.txt',
    format: 'gemini',
    toolCalls: [
      { id: 'call_0', name: 'getWeather', args: { location: 'Boston' } },
      { id: 'call_1', name: 'getWeather', args: { location: 'San Francisco' } },
    ],
    stopReason: 'tool-calls',
    usage: { inputTokens: 26, outputTokens: 155, totalTokens: 181, reasoningTokens: 132 },
  },
  {
    file: 'streams/gemini/google-tool-call-gemini3.chunks.txt',
    format: 'gemini',
    toolCalls: [weather('call_0')],
    stopReason: 'tool-calls',
    whole: 'responses/gemini/google-tool-call-gemini3.json',
  },
  {
    file: 'streams/gemini/google-tool-call.chunks.txt',
    format: 'gemini',
    toolCalls: [weather('call_0')],
    stopReason: 'tool-calls',
    usage: { inputTokens: 29, outputTokens: 60, totalTokens: 89, reasoningTokens: 45 },
    whole: 'responses/gemini/google-tool-call.json',
  },
  {
    file: 'streams/gemini/google-vertex-stream-tool-call-arguments-nested.1.chunks.txt',
    format: 'gemini',
    toolCalls: [{ id: 'call_0', name: 'cookRecipe', args: recipe }],
    stopReason: 'tool-calls',
  },
  {
    file: 'sse/anthropic-tool_use_response.sse',
    format: 'anthropic',
    toolCalls: [{ id: 'toolu_01NRLabsLyVHZPKxbKvkfSMn', name: 'get_weather', args: { location: 'Paris' } }],
    stopReason: 'tool-calls',
  },
  {
    file: 'sse/anthropic-incomplete_partial_json_response.sse',
    format: 'anthropic',
    toolCalls: [],
    invalidToolCalls: [
      {
        id: 'toolu_01EKqbqmZrGRXy18eN7m9kvY',
        name: 'make_file',
        args: '{"filename": "taxes.txt", "lines_of_text": [\n"# COMPREHENSIVE TAX GUIDE FOR INDIVIDUALS WITH MULTIPLE W-2s",\n"",\n"## INTRODUCTION",\n"",\n"Filing taxes',
        error: /incomplete JSON/,
      },
    ],
    stopReason: 'length',
    text: "I'll create a comprehensive tax guide for someone with multiple W2s and save it in a file called taxes.txt. Let me do that for you now.",
  },
];

const sseText = (c: Expected) => (c.file.endsWith('.sse') ? fixture(c.file) : asSSE(fixture(c.file)));
const fromWhole = {
  'openai-chat': fromOpenAIChat,
  'openai-responses': fromOpenAIResponses,
  anthropic: fromAnthropic,
  gemini: fromGemini,
} as const;

describe.skipIf(!hasFixtures)('recorded provider streams (../shared/fixtures)', () => {
  describe.each(cases)('$file', (c) => {
    it('decodes to the calls, text, stop reason and usage read from the recording', async () => {
      const { parts, message } = await decodeAll(c.format, sseText(c));
      expect(message.toolCalls).toEqual(c.toolCalls);
      expect(message.invalidToolCalls).toEqual(
        c.invalidToolCalls?.map((i) => ({ ...i, error: expect.stringMatching(i.error) })) ?? [],
      );
      expect(message.stopReason).toBe(c.stopReason);
      if (c.text !== undefined)
        expect(message.content).toMatch(c.text instanceof RegExp ? c.text : new RegExp(`^${escapeRegExp(c.text)}$`));
      if (c.reasoning) expect(message.reasoning).toMatch(c.reasoning);
      if (c.usage) expect(message.usage).toEqual(c.usage);
      expect(partsOfType(parts, 'error').map((e) => e.code)).toEqual(c.errors ?? []);

      // The parts tell the same story as the message.
      expect(partsOfType(parts, 'tool-call').map((p) => p.toolCall)).toEqual(c.toolCalls);
      expect(partsOfType(parts, 'tool-input-start').map((p) => [p.id, p.name])).toEqual(
        [...c.toolCalls, ...(c.invalidToolCalls ?? [])].map((t) => [t.id, t.name]),
      );
      expect(
        partsOfType(parts, 'text-delta')
          .map((p) => p.delta)
          .join(''),
      ).toBe(message.content);
      const finish = partsOfType(parts, 'finish');
      expect(finish).toHaveLength(c.stopReason ? 1 : 0);
      if (c.stopReason) expect(finish[0]?.stopReason).toBe(c.stopReason);
    });

    it('gives the same parts for any chunking of its bytes', async () => {
      const text = sseText(c);
      const reference = await decodeAll(c.format, text);
      const size = new TextEncoder().encode(text).length;
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 0, max: size }), { maxLength: 40 }), async (cuts) => {
          const again = await decodeAll(c.format, text, cuts);
          expect(again.parts).toEqual(reference.parts);
        }),
        { numRuns: 25 },
      );
    });
  });

  it.each(cases.filter((c) => c.whole !== undefined))(
    '$file ends with the calls a whole-response reading of the same call gives',
    async (c) => {
      const { message } = await decodeAll(c.format, sseText(c));
      const whole = fromWhole[c.format as keyof typeof fromWhole](fixtureJSON(c.whole as string));
      // Recorded separately, so ids differ; names and arguments must not.
      expect(message.toolCalls.map(({ name, args }) => ({ name, args }))).toEqual(
        whole.toolCalls.map(({ name, args }) => ({ name, args })),
      );
      expect(message.stopReason).toBe(whole.stopReason);
    },
  );

  it('keeps the thought signature of each Gemini call', async () => {
    const file = 'streams/gemini/google-stream-no-args-tool-call.chunks.txt';
    const { message } = await decodeAll('gemini', asSSE(fixture(file)));
    const gemini = message.metadata?.gemini as { thoughtSignatures: Record<string, string> } | undefined;
    const signatures = gemini?.thoughtSignatures ?? {};
    expect(Object.keys(signatures)).toEqual(['call_0']);
    expect(signatures.call_0).toMatch(/^AY89a18a8\/Loc2wl5/);
  });

  it('shows partial arguments growing while a Vertex call streams by JSON path', async () => {
    const file = 'streams/gemini/google-vertex-stream-tool-call-arguments-nested.1.chunks.txt';
    const { parts } = await decodeAll('gemini', asSSE(fixture(file)));
    const deltas = partsOfType(parts, 'tool-input-delta');
    expect(deltas[0]).toMatchObject({ path: ['recipe', 'ingredients', 0, 'amount'], delta: '16 oz' });
    expect(deltas[0]?.partialArgs).toEqual({ recipe: { ingredients: [{ amount: '16 oz' }] } });
    const step1 = deltas.filter((d) => JSON.stringify(d.path) === '["recipe","steps",1]');
    expect(step1.map((d) => d.delta)).toEqual([
      'Cook lasagna noodles according to package directions, drain and set aside',
      '.',
    ]);
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
