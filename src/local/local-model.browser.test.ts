// Real llama.cpp inference (wllama) on a tiny GGUF the test writes itself: no download, no GPU.
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import { afterAll, describe, expect, it } from 'vitest';
import { TOOLS_CHAT_TEMPLATE, tinyGGUF } from '../../test/tiny-gguf';
import toolsUrl from '../../test/workers/local-tools.worker.ts?worker&url';
import { createAgent } from '../agent/agent';
import type { AgentEvent } from '../agent/types';
import { LocalModelError } from '../errors/local-model-error';
import { userMessage } from '../messages/constructors';
import { createWorkerPool } from '../pool/worker-pool';
import type { StreamPart } from '../stream/stream-part';
import { localModel } from './local-model';

const model = localModel({ model: new Blob([tinyGGUF()]), wasmUrl, name: 'tiny', temperature: 0 });
afterAll(() => model.unload());

describe('localModel: llama.cpp in its worker', () => {
  it('says how it runs: grammar tool calls for a template without tool syntax, threads as the page allows', async () => {
    const info = await model.load();
    expect(info.toolCalls).toBe('grammar');
    expect(info.size).toBe(tinyGGUF().byteLength);
    // The browser project's page is cross-origin isolated: threads share memory there.
    expect(crossOriginIsolated).toBe(true);
    expect(info.multiThreaded).toBe(info.threads > 1);
    expect(info.threads).toBe(Math.min(4, navigator.hardwareConcurrency));
  });

  it('drives the agent: a grammar-held call streams, runs in the sealed pool, and the model answers', {
    timeout: 60_000,
  }, async () => {
    const pool = createWorkerPool({ worker: toolsUrl, size: 1, timeoutMs: 10_000 });
    try {
      const agent = createAgent({
        model,
        pool,
        toolChoice: { name: 'add' },
        maxTokens: 96,
        maxSteps: 3,
        // Once the result is in, no tools: the answer is text.
        prepareStep: ({ messages }) => (messages.at(-1)?.role === 'tool' ? { tools: [] } : undefined),
      });
      const events: AgentEvent[] = [];
      for await (const e of agent.stream('Add two numbers.')) events.push(e);
      const types = events.map((e) => e.type);

      const start = events.find((e) => e.type === 'tool-input-start');
      expect(start).toMatchObject({ name: 'add', index: 0 });
      const deltas = events.filter((e) => e.type === 'tool-input-delta');
      expect(deltas.length).toBeGreaterThan(1);
      const call = events.find((e) => e.type === 'tool-call');
      if (call?.type !== 'tool-call') throw new Error('no tool-call event');
      const { a, b } = call.toolCall.args as { a: number; b: number };
      expect(typeof a).toBe('number');
      expect(typeof b).toBe('number');
      // The arguments streamed are the arguments called.
      expect(JSON.parse(deltas.map((d) => (d.type === 'tool-input-delta' ? d.delta : '')).join(''))).toEqual({ a, b });

      // It ran in the sealed pool's worker (an opaque origin), and its result went back to the model.
      const finished = events.find((e) => e.type === 'tool-finished');
      expect(finished).toMatchObject({ name: 'add', output: { sum: a + b, origin: 'null' } });
      expect(types.indexOf('tool-started')).toBeGreaterThan(types.indexOf('tool-call'));
      const steps = events.filter((e) => e.type === 'step-finish');
      expect(steps).toHaveLength(2);
      const [first, second] = steps;
      if (first?.type !== 'step-finish' || second?.type !== 'step-finish') throw new Error('steps');
      expect(first.toolMessages.map((m) => JSON.parse(m.content as string))).toEqual([{ sum: a + b, origin: 'null' }]);
      // ...and the model read it: the second request's prompt held it.
      expect(second.message.content).not.toBe('');
      // The second step is the model's answer: text, streamed, counted.
      expect(types.slice(types.lastIndexOf('tool-finished')).includes('text-delta')).toBe(true);
      expect(second.message.toolCalls ?? []).toEqual([]);
      expect(second.message.content.length).toBeGreaterThan(0);
      expect(first.usage?.inputTokens).toBeGreaterThan(0);
      expect(first.usage?.outputTokens).toBeGreaterThan(0);
      // The tiny vocabulary is about one token a character: the second prompt holds the call and
      // its result (it would be ~40 tokens without them).
      const carried = JSON.stringify(call.toolCall.args).length + String(first.toolMessages[0]?.content).length;
      expect(second.usage?.inputTokens).toBeGreaterThan(40 + carried);
      expect(first.model).toEqual({ provider: 'local', modelId: 'tiny' });
    } finally {
      await pool.close();
    }
  });

  it('stops generating when the signal aborts', async () => {
    const controller = new AbortController();
    const parts: StreamPart[] = [];
    const stream = model.stream({ messages: [userMessage('Say a lot.')], maxTokens: 2000, signal: controller.signal });
    const reading = (async () => {
      for await (const part of stream) {
        parts.push(part);
        if (parts.filter((p) => p.type === 'text-delta').length === 3) controller.abort(new Error('stop'));
      }
    })();
    await expect(reading).rejects.toThrow('stop');
    expect(parts.filter((p) => p.type === 'text-delta')).toHaveLength(3);
    // The engine is free again: the next request runs.
    const next = model.stream({ messages: [userMessage('Hi')], maxTokens: 4 });
    for await (const _ of next);
    expect(next.message().usage?.outputTokens).toBe(4);
  });

  it("template mode: a template with tool syntax gets the tools, and llama.cpp's parser's call streams through", async () => {
    const call = '{"name": "add", "arguments": {"a": 2, "b": 3}}';
    const scripted = localModel({
      model: new Blob([tinyGGUF({ chatTemplate: TOOLS_CHAT_TEMPLATE, scriptedCall: call })]),
      wasmUrl,
      contextSize: 2048,
      temperature: 0,
    });
    try {
      expect((await scripted.load()).toolCalls).toBe('template');
      const add = {
        name: 'add',
        description: 'Add two small integers.',
        inputSchema: {
          type: 'object',
          properties: { a: { type: 'integer' }, b: { type: 'integer' } },
          required: ['a', 'b'],
        },
      };
      const parts: StreamPart[] = [];
      const stream = scripted.stream({ messages: [userMessage('Add 2 and 3.')], tools: [add], maxTokens: 16 });
      for await (const part of stream) parts.push(part);
      expect(parts.find((p) => p.type === 'tool-input-start')).toMatchObject({ name: 'add', index: 0 });
      expect(parts.find((p) => p.type === 'tool-call')).toMatchObject({
        toolCall: { name: 'add', args: { a: 2, b: 3 } },
      });
      expect(stream.message()).toMatchObject({ content: '', stopReason: 'tool-calls' });
    } finally {
      await scripted.unload();
    }
  });

  it('a call cut off by maxTokens is an InvalidToolCall carrying what came, not a crash', async () => {
    const add = {
      name: 'add',
      description: 'Add two small integers.',
      inputSchema: {
        type: 'object',
        properties: { a: { type: 'integer', minimum: 0, maximum: 999 }, b: { type: 'integer' } },
        required: ['a', 'b'],
        additionalProperties: false,
      },
    };
    const parts: StreamPart[] = [];
    const stream = model.stream({
      messages: [userMessage('Add.')],
      tools: [add],
      toolChoice: { name: 'add' },
      maxTokens: 40,
    });
    for await (const part of stream) parts.push(part);
    expect(parts.find((p) => p.type === 'tool-input-start')).toMatchObject({ name: 'add' });
    expect(parts.some((p) => p.type === 'tool-call')).toBe(false);
    const message = stream.message();
    expect(message.toolCalls ?? []).toEqual([]);
    expect(message.invalidToolCalls).toHaveLength(1);
    expect(message.invalidToolCalls?.[0]).toMatchObject({ name: 'add' });
    expect(message.stopReason).toBe('length');
  });

  it('holds structured output to its schema with a grammar', async () => {
    const schema = {
      type: 'object',
      properties: { digit: { type: 'integer', minimum: 0, maximum: 9 }, word: { enum: ['yes', 'no'] } },
      required: ['digit', 'word'],
      additionalProperties: false,
    };
    const stream = model.stream({ messages: [userMessage('Pick.')], output: { name: 'pick', schema }, maxTokens: 64 });
    for await (const _ of stream);
    const answer = JSON.parse(stream.message().content as string);
    expect(Object.keys(answer).sort()).toEqual(['digit', 'word']);
    expect(answer.digit).toBeGreaterThanOrEqual(0);
    expect(answer.digit).toBeLessThanOrEqual(9);
    expect(['yes', 'no']).toContain(answer.word);
  });

  it('refuses a file that is not a GGUF, clearly', async () => {
    const bad = localModel({ model: new Blob(['<!doctype html>']), wasmUrl });
    const error = await bad.load().catch((e: unknown) => e);
    expect(LocalModelError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ reason: 'not-gguf' });
  });

  it('refuses a GGUF cut short, clearly', async () => {
    const whole = tinyGGUF();
    const cut = localModel({ model: new Blob([whole.slice(0, whole.byteLength >> 1)]), wasmUrl });
    const error = await cut.load().catch((e: unknown) => e);
    expect(error).toMatchObject({ name: 'LocalModelError', reason: 'cannot-load' });
  });
});
