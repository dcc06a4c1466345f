// The official npm clients, pointed at the test server, parse its streams and its errors: proof
// that it speaks the real protocols (so what Moat's clients do against it holds against the real
// services too).
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI } from '@google/genai';
import { Ollama } from 'ollama';
import OpenAI from 'openai';
import { describe, expect, inject, it } from 'vitest';
import { userMessage } from '../../src/messages/constructors';
import { openAICompatible } from '../../src/models/openai-compatible';
import type { ToolSpec } from '../../src/providers/tool-spec';
import { addScenario, type Scenario } from './scenarios';

const url = inject('modelServerUrl');
const scenario = (init: Omit<Scenario, 'id'>) => addScenario(url, init, 'official');

const turns: Scenario['turns'] = [
  {
    text: 'Computing.',
    toolCalls: [
      { name: 'multiply', args: { a: 3, b: 12 } },
      { name: 'add', args: { a: 11, b: 49 } },
    ],
  },
];
const weather = { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] };

describe('the official clients parse the server streams', () => {
  it('openai: Chat Completions chunks, tool calls assembled by index', async () => {
    const model = await scenario({ turns, apiKey: 'sk-test' });
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'sk-test' });
    const stream = await client.chat.completions.create({
      model,
      stream: true,
      messages: [{ role: 'user', content: 'go' }],
      tools: [{ type: 'function', function: { name: 'multiply', parameters: weather } }],
    });
    const args: string[] = [];
    let text = '';
    let finish: string | null | undefined;
    for await (const chunk of stream) {
      text += chunk.choices[0]?.delta.content ?? '';
      for (const tc of chunk.choices[0]?.delta.tool_calls ?? [])
        args[tc.index] = (args[tc.index] ?? '') + (tc.function?.arguments ?? '');
      finish ??= chunk.choices[0]?.finish_reason;
    }
    expect(text).toBe('Computing.');
    expect(args.map((a) => JSON.parse(a))).toEqual([
      { a: 3, b: 12 },
      { a: 11, b: 49 },
    ]);
    expect(finish).toBe('tool_calls');
  });

  it('openai: the Responses API events, and a 400 in its error shape', async () => {
    const model = await scenario({ turns });
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'x' });
    const stream = await client.responses.create({ model, stream: true, input: [{ role: 'user', content: 'go' }] });
    const calls: unknown[] = [];
    for await (const event of stream) {
      if (event.type === 'response.completed')
        for (const item of event.response.output)
          if (item.type === 'function_call') calls.push([item.name, JSON.parse(item.arguments)]);
    }
    expect(calls).toEqual([
      ['multiply', { a: 3, b: 12 }],
      ['add', { a: 11, b: 49 }],
    ]);
    const bad = client.responses.create({
      model,
      stream: true,
      input: [{ type: 'function_call_output', call_id: 'nope', output: '1' }],
    });
    await expect(bad).rejects.toMatchObject({ status: 400, message: expect.stringContaining('No tool call found') });
  });

  it('openai: a client object plugs into openAICompatible unchanged', async () => {
    const model = await scenario({ turns });
    const client = new OpenAI({ baseURL: `${url}/v1`, apiKey: 'x' });
    const tools: ToolSpec[] = [{ name: 'multiply', description: 'x', inputSchema: weather }];
    const parts = openAICompatible({ client: client as never, model }).stream({ messages: [userMessage('go')], tools });
    const types: string[] = [];
    for await (const part of parts) types.push(part.type);
    expect(types.filter((t) => t === 'tool-call')).toHaveLength(2);
    expect(parts.message().toolCalls.map((c) => c.args)).toEqual([
      { a: 3, b: 12 },
      { a: 11, b: 49 },
    ]);
  });

  it('@anthropic-ai/sdk: message events with tool_use input_json deltas, and the key checked', async () => {
    const model = await scenario({ turns, apiKey: 'ant-key' });
    const client = new Anthropic({ baseURL: url, apiKey: 'ant-key' });
    const stream = client.messages.stream({ model, max_tokens: 100, messages: [{ role: 'user', content: 'go' }] });
    const message = await stream.finalMessage();
    expect(message.stop_reason).toBe('tool_use');
    expect(message.content.filter((b) => b.type === 'tool_use').map((b) => b.input)).toEqual([
      { a: 3, b: 12 },
      { a: 11, b: 49 },
    ]);
    const wrong = new Anthropic({ baseURL: url, apiKey: 'other', maxRetries: 0 });
    await expect(
      wrong.messages.create({ model, max_tokens: 10, messages: [{ role: 'user', content: 'go' }] }),
    ).rejects.toMatchObject({
      status: 401,
    });
  });

  it('@google/genai: streamed candidates with function calls', async () => {
    const model = await scenario({ turns, apiKey: 'g-key' });
    const ai = new GoogleGenAI({ apiKey: 'g-key', httpOptions: { baseUrl: url } });
    const stream = await ai.models.generateContentStream({
      model,
      contents: [{ role: 'user', parts: [{ text: 'go' }] }],
    });
    const calls: unknown[] = [];
    let text = '';
    for await (const chunk of stream) {
      for (const part of chunk.candidates?.[0]?.content?.parts ?? []) text += part.text ?? '';
      for (const fc of chunk.functionCalls ?? []) calls.push([fc.name, fc.args]);
    }
    expect(text).toBe('Computing.');
    expect(calls).toEqual([
      ['multiply', { a: 3, b: 12 }],
      ['add', { a: 11, b: 49 }],
    ]);
  });

  it('ollama: NDJSON chat lines with whole tool calls', async () => {
    const model = await scenario({ turns });
    const client = new Ollama({ host: url });
    const stream = await client.chat({ model, stream: true, messages: [{ role: 'user', content: 'go' }] });
    const calls: unknown[] = [];
    let done = false;
    for await (const chunk of stream) {
      for (const tc of chunk.message.tool_calls ?? []) calls.push([tc.function.name, tc.function.arguments]);
      done ||= chunk.done;
    }
    expect(done).toBe(true);
    expect(calls).toEqual([
      ['multiply', { a: 3, b: 12 }],
      ['add', { a: 11, b: 49 }],
    ]);
  });
});
