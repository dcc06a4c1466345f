// Moat's model clients against the wire-protocol server (test/model-server): what they send,
// what they make of what comes back, and every failure typed.
import { describe, expect, inject, it, vi } from 'vitest';
import { FIXTURES, hasFixtures } from '../../test/fixtures';
import { addScenario, requestsOf, type Scenario } from '../../test/model-server/scenarios';
import { contentType, streamBody, type WireFormat } from '../../test/model-server/wire-format';
import { isContextOverflow, overflowFigures } from '../errors/context-overflow';
import { ModelHTTPError } from '../errors/model-http-error';
import { ModelNetworkError } from '../errors/model-network-error';
import { ModelStreamError } from '../errors/model-stream-error';
import { UnsupportedContentError } from '../errors/unsupported-content-error';
import { aiMessage, toolMessage, userMessage } from '../messages/constructors';
import type { ContentPart, ToolCall } from '../messages/types';
import type { ToolSpec } from '../providers/tool-spec';
import type { StreamPart } from '../stream/stream-part';
import { anthropic } from './anthropic';
import { gemini } from './gemini';
import { retryAfter } from './http';
import { modelStream } from './model-stream';
import { ollama } from './ollama';
import { openAICompatible } from './openai-compatible';
import type { ChatModel, ModelRequest } from './types';

const url = inject('modelServerUrl');
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
const PDF = 'JVBERi0xLjcKJeLjz9MK';
const KEY = 'sk-secret-0123456789';

/** Every client, made for a scenario, with the server's format it speaks. */
const clients: Record<string, (model: string, extra?: Record<string, unknown>) => ChatModel> = {
  'openai-chat': (model, extra = {}) => openAICompatible({ baseURL: `${url}/v1`, apiKey: KEY, model, ...extra }),
  'openai-responses': (model, extra = {}) =>
    openAICompatible({ baseURL: `${url}/v1`, apiKey: KEY, model, api: 'responses', ...extra }),
  anthropic: (model, extra = {}) => anthropic({ baseURL: url, apiKey: KEY, model, ...extra }),
  gemini: (model, extra = {}) => gemini({ baseURL: `${url}/v1beta`, apiKey: KEY, model, ...extra }),
  ollama: (model, extra = {}) => ollama({ baseURL: url, model, ...extra }),
};
const keyed = (name: string) => name !== 'ollama';

const tools: ToolSpec[] = [
  {
    name: 'multiply',
    description: 'Multiply.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
];
const turns: Scenario['turns'] = [
  {
    text: 'Let me see.',
    toolCalls: [
      { name: 'multiply', args: { a: 3, b: 12 } },
      { name: 'multiply', args: { a: 2, b: 2 } },
    ],
  },
  { text: 'The answers are {{results}}.' },
];

async function drain(model: ChatModel, request: ModelRequest) {
  const stream = model.stream(request);
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return { parts, message: stream.message() };
}

describe.each(Object.keys(clients))('%s client', (name) => {
  const make = clients[name] as (typeof clients)[string];
  const scenario = (init: Omit<Scenario, 'id'>) =>
    addScenario(url, keyed(name) ? { apiKey: KEY, ...init } : init, name);

  it('streams text and tool calls, then answers the tool results with the next turn', async () => {
    const id = await scenario({ turns });
    const model = make(id);
    const first = await drain(model, { messages: [userMessage('3 * 12 and 2 * 2?')], tools, system: 'Be exact.' });
    expect(first.message.content).toBe('Let me see.');
    expect(first.message.toolCalls.map((c) => c.args)).toEqual([
      { a: 3, b: 12 },
      { a: 2, b: 2 },
    ]);
    expect(first.message.stopReason).toBe('tool-calls');
    expect(first.message.usage?.inputTokens).toBeGreaterThan(0);
    expect(first.parts.filter((p) => p.type === 'text-delta').length).toBeGreaterThan(1);
    const history = [
      userMessage('3 * 12 and 2 * 2?'),
      first.message,
      ...first.message.toolCalls.map((c, i) =>
        toolMessage({ toolCallId: c.id, name: c.name, content: ['36', '4'][i] as string }),
      ),
    ];
    const second = await drain(model, { messages: history, tools });
    expect(second.message.content).toBe('The answers are 36, 4.');
    expect(second.message.stopReason).toBe('end');
  });

  it('sends an image, and a PDF where the provider reads documents, in a form the server accepts', async () => {
    const id = await scenario({ turns: [{ text: 'A red pixel.' }] });
    const parts: ContentPart[] = [
      { type: 'text', text: 'What is this?' },
      { type: 'image', data: PNG, mediaType: 'image/png' },
    ];
    if (name !== 'ollama') parts.push({ type: 'file', data: PDF, mediaType: 'application/pdf', filename: 'r.pdf' });
    const { message } = await drain(make(id), { messages: [userMessage(parts)] });
    expect(message.content).toBe('A red pixel.');
    const [request] = await requestsOf(url, id);
    expect(request?.answer).toBe('stream');
    expect(JSON.stringify(request?.body)).toContain(PNG);
    if (name !== 'ollama') expect(JSON.stringify(request?.body)).toContain(PDF);
  });

  it("sends a tool's image result the way the provider takes one, and the server reads the result", async () => {
    const id = await scenario({
      turns: [{ toolCalls: [{ name: 'multiply', args: { a: 1, b: 1 } }] }, { text: 'Saw {{results}}' }],
    });
    const first = await drain(make(id), { messages: [userMessage('Draw it')], tools });
    const call = first.message.toolCalls[0] as ToolCall;
    const result = toolMessage({
      toolCallId: call.id,
      name: call.name,
      content: [
        { type: 'text', text: 'drawn' },
        { type: 'image', data: PNG, mediaType: 'image/png' },
      ],
    });
    const second = await drain(make(id), { messages: [userMessage('Draw it'), first.message, result], tools });
    expect(second.message.content).toMatch(/^Saw drawn/);
    const requests = await requestsOf(url, id);
    expect(requests.map((r) => r.answer)).toEqual(['stream', 'stream']);
    // The image itself went with the second request, however the provider carries it.
    expect(JSON.stringify(requests[1]?.body)).toContain(PNG);
  });

  it('refuses a part the provider cannot take before anything is sent', async () => {
    const id = await scenario({ turns: [{ text: 'never' }] });
    // Each format has a part it cannot take: a file at a URL on Chat; an SVG on Anthropic; a URL
    // in a Gemini function response; any document on Ollama. Responses takes them all.
    if (name === 'openai-responses') return;
    const bad: Record<string, ContentPart> = {
      'openai-chat': { type: 'file', data: 'https://example.com/r.pdf', mediaType: 'application/pdf' },
      anthropic: { type: 'image', data: 'PHN2Zz4=', mediaType: 'image/svg+xml' },
      gemini: { type: 'image', data: 'https://example.com/a.png' },
      ollama: { type: 'file', data: PDF, mediaType: 'application/pdf' },
    };
    const part = bad[name] as ContentPart;
    const messages =
      name === 'gemini'
        ? [
            userMessage('x'),
            aiMessage({ toolCalls: [{ id: 'c', name: 'multiply', args: {} }] }),
            toolMessage({ toolCallId: 'c', name: 'multiply', content: [part] }),
          ]
        : [userMessage([part])];
    await expect(drain(make(id), { messages })).rejects.toThrow(UnsupportedContentError);
    expect(await requestsOf(url, id)).toEqual([]);
  });

  it('an image larger than the provider takes, which Node cannot scale down, is refused before anything is sent', async () => {
    if (name === 'ollama') return; // Ollama states no limit
    const id = await scenario({ turns: [{ text: 'never' }] });
    // A PNG header claiming 20,000 px across: past every limit on a side.
    const header = new Uint8Array(32);
    header.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
    new DataView(header.buffer).setUint32(16, 20_000);
    new DataView(header.buffer).setUint32(20, 10);
    const wide: ContentPart = { type: 'image', data: Buffer.from(header).toString('base64'), mediaType: 'image/png' };
    await expect(drain(make(id), { messages: [userMessage([wide])] })).rejects.toThrow(/no OffscreenCanvas/);
    expect(await requestsOf(url, id)).toEqual([]);
  });

  it('gives the same parts in batches (one per chunk the server sent) as one by one', async () => {
    const id = await scenario({ turns });
    const request = { messages: [userMessage('3 * 12 and 2 * 2?')], tools };
    const one = await drain(make(id), request);
    const stream = make(id).stream(request);
    const batches: StreamPart[][] = [];
    for await (const batch of stream.batches?.() ?? []) batches.push(batch);
    expect(batches.length).toBeGreaterThan(0);
    expect(batches.every((b) => b.length > 0)).toBe(true);
    const calm = (parts: StreamPart[]) =>
      parts.map((p) => (p.type === 'tool-input-delta' ? { type: p.type, delta: p.delta } : p));
    expect(calm(batches.flat())).toEqual(calm(one.parts));
    expect(stream.message().toolCalls.map((c) => c.args)).toEqual(one.message.toolCalls.map((c) => c.args));
  });

  it('sends the system prompt, tools and settings the way the provider wants them', async () => {
    const id = await scenario({ turns: [{ text: 'ok' }] });
    await drain(make(id, { temperature: 0.3 }), {
      messages: [userMessage('hi')],
      tools,
      system: 'Be exact.',
      maxTokens: 99,
      toolChoice: { name: 'multiply' },
      providerOptions: { custom_field: { nested: true } },
    });
    const [request] = await requestsOf(url, id);
    // biome-ignore lint/suspicious/noExplicitAny: a provider body, read field by field
    const body = request?.body as Record<string, any>;
    expect(body.custom_field).toEqual({ nested: true });
    if (name === 'openai-chat') {
      expect(body).toMatchObject({
        temperature: 0.3,
        max_tokens: 99,
        stream: true,
        tool_choice: { type: 'function', function: { name: 'multiply' } },
      });
      expect(body.messages[0]).toEqual({ role: 'system', content: 'Be exact.' });
      expect(body.tools[0].function.name).toBe('multiply');
      expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    } else if (name === 'openai-responses') {
      expect(body).toMatchObject({
        temperature: 0.3,
        max_output_tokens: 99,
        tool_choice: { type: 'function', name: 'multiply' },
      });
      expect(body.tools[0].name).toBe('multiply');
    } else if (name === 'anthropic') {
      expect(body).toMatchObject({
        system: 'Be exact.',
        max_tokens: 99,
        temperature: 0.3,
        tool_choice: { type: 'tool', name: 'multiply' },
      });
      expect(request?.headers['x-api-key']).toBe(KEY);
      expect(request?.headers['anthropic-dangerous-direct-browser-access']).toBe('true');
    } else if (name === 'gemini') {
      expect(body.systemInstruction).toEqual({ parts: [{ text: 'Be exact.' }] });
      expect(body.generationConfig).toEqual({ temperature: 0.3, maxOutputTokens: 99 });
      expect(body.toolConfig).toEqual({ functionCallingConfig: { mode: 'ANY', allowedFunctionNames: ['multiply'] } });
      expect(request?.headers['x-goog-api-key']).toBe(KEY);
      expect(request?.path).not.toContain(KEY);
    } else {
      expect(body.options).toEqual({ temperature: 0.3, num_predict: 99 });
      expect(body.tools[0].function.name).toBe('multiply');
    }
  });

  it('retries a 429 and a 503, then succeeds', async () => {
    const id = await scenario({ turns: [{ text: 'fine', faults: [{ status: 429, retryAfter: 0 }, { status: 503 }] }] });
    const { message } = await drain(make(id, { retryDelayMs: 1 }), { messages: [userMessage('hi')] });
    expect(message.content).toBe('fine');
    expect((await requestsOf(url, id)).map((r) => r.answer)).toEqual([429, 503, 'stream']);
  });

  it('gives up after maxRetries with a ModelHTTPError carrying status, provider and body', async () => {
    const id = await scenario({
      turns: [{ text: 'never', faults: [{ status: 500 }, { status: 500 }, { status: 500 }] }],
    });
    const failed = drain(make(id, { retryDelayMs: 5 }), { messages: [userMessage('hi')] });
    await expect(failed).rejects.toBeInstanceOf(ModelHTTPError);
    await failed.catch((error: ModelHTTPError) => {
      expect(error).toMatchObject({ status: 500, retryable: true });
      expect(error.body).toContain('Scripted failure 500');
      expect(error.message).toContain('Scripted failure 500');
    });
    expect(await requestsOf(url, id)).toHaveLength(3);
  });

  it("reads the provider's context-overflow 400 as one, with the sizes when it quotes them", async () => {
    const id = await scenario({ contextWindow: 40, turns: [{ text: 'never' }] });
    const failed = drain(make(id, { retryDelayMs: 5 }), { messages: [userMessage('word '.repeat(200))] });
    await expect(failed).rejects.toMatchObject({ name: 'ModelHTTPError', status: 400 });
    const error = (await failed.catch((e: unknown) => e)) as ModelHTTPError;
    expect(isContextOverflow(error)).toBe(true);
    const figures = overflowFigures(error);
    if (name === 'openai-responses' || name === 'ollama') expect(figures).toBeUndefined();
    else expect(figures).toEqual({ sent: expect.any(Number), limit: 40 });
    expect(figures === undefined || (figures.sent > 40 && figures.sent < 1_000)).toBe(true);
    expect(await requestsOf(url, id)).toHaveLength(1);
    // A 400 for something else, or a 500, is not an overflow.
    expect(isContextOverflow(new ModelHTTPError({ status: 400, provider: name, body: 'bad field' }))).toBe(false);
    expect(isContextOverflow(new ModelHTTPError({ status: 500, provider: name, body: error.body }))).toBe(false);
  });

  it('reports the usage the server counted, cache reads and writes included where the provider says', async () => {
    const id = await scenario({
      turns: [{ text: 'ok', usage: { input: 100, output: 7, cacheRead: 60, cacheWrite: 30 } }],
    });
    const stream = make(id).stream({ messages: [userMessage('hi')] });
    for await (const _ of stream);
    const usage = stream.message().usage;
    // Every client reports input with the cached tokens in it; Ollama reports no cache.
    expect(usage).toMatchObject({ inputTokens: 100, outputTokens: 7 });
    if (name !== 'ollama') expect(usage?.cachedInputTokens).toBe(60);
    // Only Anthropic reports what it wrote to its cache.
    expect(usage?.cacheWriteTokens).toBe(name === 'anthropic' ? 30 : undefined);
  });

  it('does not retry a 400, and says what the server refused', async () => {
    // Gemini refuses a function response with no name; the others, a tool result that answers no
    // call; Ollama checks neither, so its scenario has no turn to give (a 400 in Ollama's shape).
    const id = await scenario({ turns: name === 'ollama' ? [] : [{ text: 'x' }] });
    const history =
      name === 'gemini'
        ? [userMessage('hi'), toolMessage({ toolCallId: 'nope', name: '', content: '1' })]
        : [userMessage('hi'), toolMessage({ toolCallId: 'nope', name: 'multiply', content: '1' })];
    const failed = drain(make(id), { messages: history });
    await expect(failed).rejects.toMatchObject({ name: 'ModelHTTPError', status: 400, retryable: false });
    const said = { gemini: 'Name cannot be empty', ollama: 'no turn 0', anthropic: 'tool_use_id' } as Record<
      string,
      string
    >;
    await expect(failed).rejects.toThrow(said[name] ?? 'tool');
    expect(await requestsOf(url, id)).toHaveLength(1);
  });

  it('a stream cut off mid-way is a ModelStreamError, never retried; a reset too; garbage too', async () => {
    const id = await scenario({
      turns: [
        {
          text: 'A long answer that will not arrive whole.',
          faults: [{ cutAfter: 120 }, { cutAfter: 120, mode: 'reset' }, { garbage: true }],
        },
      ],
    });
    const model = make(id);
    await expect(drain(model, { messages: [userMessage('hi')] })).rejects.toMatchObject({ name: 'ModelStreamError' });
    await expect(drain(model, { messages: [userMessage('hi')] })).rejects.toBeInstanceOf(ModelStreamError);
    await expect(drain(model, { messages: [userMessage('hi')] })).rejects.toMatchObject({ reason: 'malformed' });
    expect(await requestsOf(url, id)).toHaveLength(3);
  });

  if (keyed(name)) {
    it('never lets the API key into an error, even when the server echoes it', async () => {
      const id = await scenario({ turns: [{ text: 'x' }], apiKey: 'the-right-key' });
      const model = make(id);
      const error = await drain(model, { messages: [userMessage('hi')] }).catch((e: unknown) => e as ModelHTTPError);
      expect(error).toMatchObject({ name: 'ModelHTTPError', status: 401, retryable: false });
      const text = JSON.stringify({ message: (error as Error).message, body: (error as ModelHTTPError).body, error });
      expect(text).toContain('[redacted]');
      expect(text).not.toContain(KEY);
      expect(JSON.stringify(model)).not.toContain(KEY);
    });
  }

  it('an abort mid-stream rejects with the reason and closes the request', async () => {
    const id = await scenario({ turns: [{ text: 'word '.repeat(200) }], delayMs: 5, maxPiece: 8 });
    const controller = new AbortController();
    const stream = make(id).stream({ messages: [userMessage('hi')], signal: controller.signal });
    const reason = new Error('stopped by the user');
    let seen = 0;
    await expect(
      (async () => {
        for await (const part of stream) if (part.type === 'text-delta' && ++seen === 2) controller.abort(reason);
      })(),
    ).rejects.toBe(reason);
  });

  it('refuses bad settings with a TypeError naming them, before sending anything', () => {
    expect(() => make('m', { temperature: 'hot' })).toThrow(/`temperature`/);
    expect(() => make('m').stream({ messages: [], toolChoice: 'sometimes' as never })).toThrow(/`toolChoice`/);
    expect(() => make('m').stream({ messages: 'hi' as never })).toThrow(/`messages` to be a list/);
    expect(() => make('m', { maxRetries: -1 })).toThrow(/`maxRetries`/);
  });
});

describe('failures before any answer', () => {
  it('an unreachable server is a ModelNetworkError after the retries', async () => {
    const model = openAICompatible({ baseURL: 'http://127.0.0.1:9/v1', model: 'm', retryDelayMs: 1, apiKey: KEY });
    const error = await drain(model, { messages: [userMessage('hi')] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelNetworkError);
    expect(String((error as Error).message)).not.toContain(KEY);
  });

  it('reads Retry-After in seconds, as a date, and retry-after-ms', () => {
    expect(retryAfter(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfter(new Headers({ 'retry-after-ms': '150' }))).toBe(150);
    const date = retryAfter(new Headers({ 'retry-after': new Date(Date.now() + 5000).toUTCString() })) ?? 0;
    expect(date).toBeGreaterThan(3000);
    expect(retryAfter(new Headers({ 'retry-after': 'soon' }))).toBeUndefined();
  });

  it('waits what Retry-After asks, not a moment less, then tries again (a fake clock)', async () => {
    // The answers come from the test's fetch: no network, so the client's wait is the only timer.
    const answers = [
      () => new Response('{"error":{"message":"slow down"}}', { status: 429, headers: { 'retry-after': '2' } }),
      () =>
        new Response(streamBody('openai-chat', { text: 'fine' }, 0), {
          headers: { 'content-type': 'text/event-stream' },
        }),
    ];
    let fetched = 0;
    const model = openAICompatible({
      baseURL: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKey: KEY,
      fetch: async () => (answers[fetched++] as () => Response)(),
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const done = drain(model, { messages: [userMessage('hi')] });
      // The 429 read, the client waits on a timer of its own. Looked for at each turn of the event
      // loop, a thousand at most (expect.poll would move the fake clock on).
      for (let turn = 0; turn < 1_000 && vi.getTimerCount() === 0; turn++) await new Promise((r) => setImmediate(r));
      expect([fetched, vi.getTimerCount()]).toEqual([1, 1]);
      vi.advanceTimersByTime(1_999);
      expect([fetched, vi.getTimerCount()]).toEqual([1, 1]);
      vi.advanceTimersByTime(1);
      expect(vi.getTimerCount()).toBe(0);
      expect((await done).message.content).toBe('fine');
      expect(fetched).toBe(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a Retry-After longer than maxRetryDelayMs waits only that long', async () => {
    const id = await addScenario(url, { turns: [{ text: 'ok', faults: [{ status: 429, retryAfter: 3600 }] }] });
    const model = openAICompatible({ baseURL: `${url}/v1`, model: id, maxRetryDelayMs: 20 });
    expect((await drain(model, { messages: [userMessage('hi')] })).message.content).toBe('ok');
  });
});

describe("with no key, pointed at a route on the page's origin (moat-sdk/server's proxy)", () => {
  // Each client made with a path as its baseURL and no key; `fetch` answers as the route would.
  const routed: Record<WireFormat, (fetch: typeof globalThis.fetch) => ChatModel> = {
    'openai-chat': (fetch) => openAICompatible({ baseURL: '/api/openai', model: 'm', fetch }),
    'openai-responses': (fetch) => openAICompatible({ baseURL: '/api/openai', model: 'm', api: 'responses', fetch }),
    anthropic: (fetch) => anthropic({ baseURL: '/api/anthropic', model: 'm', fetch }),
    gemini: (fetch) => gemini({ baseURL: '/api/gemini', model: 'm', fetch }),
    ollama: (fetch) => ollama({ baseURL: '/api/ollama', model: 'm', fetch }),
  };

  it.each(Object.keys(routed) as WireFormat[])('%s: sends to the path, with no credential header', async (format) => {
    const sent: { url: string; headers: Record<string, string> }[] = [];
    const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
      sent.push({ url: String(input), headers: init?.headers as Record<string, string> });
      return new Response(streamBody(format, { text: 'routed' }, 0), {
        headers: { 'content-type': contentType(format) },
      });
    };
    const { message } = await drain(routed[format](fetch), { messages: [userMessage('hi')] });
    expect(message.content).toBe('routed');
    expect(sent[0]?.url).toMatch(
      /^\/api\/\w+\/(chat\/completions|responses|v1\/messages|models\/m:streamGenerateContent\?alt=sse|api\/chat)$/,
    );
    const names = Object.keys(sent[0]?.headers ?? {}).map((n) => n.toLowerCase());
    for (const credential of [
      'authorization',
      'x-api-key',
      'x-goog-api-key',
      'anthropic-dangerous-direct-browser-access',
    ])
      expect(names).not.toContain(credential);
  });

  it("refuses a base that is neither an http(s) URL nor a path on the page's origin", () => {
    for (const baseURL of ['api/openai', '//elsewhere.example/v1', 'ftp://x/v1'])
      expect(() => openAICompatible({ baseURL, model: 'm' }), baseURL).toThrow(
        /`baseURL` to be an http\(s\) URL or a path/,
      );
  });
});

describe.skipIf(!hasFixtures)(`recorded provider streams replayed by the server (${FIXTURES})`, () => {
  const cases: [string, string, number][] = [
    ['openai-chat', 'openai-chat/groq-tool-call.chunks.txt', 1],
    ['openai-chat', 'openai-chat/mistral-incremental-tool-call.chunks.txt', 1],
    ['openai-responses', 'openai-responses/azure-tool-call.1.chunks.txt', 1],
    ['anthropic', 'anthropic/anthropic-json-tool.1.chunks.txt', 1],
    ['gemini', 'gemini/google-tool-call.chunks.txt', 1],
  ];
  it.each(cases)('%s reads %s', async (client, replay, calls) => {
    const id = await addScenario(url, { turns: [{ replay }], apiKey: KEY });
    const { message } = await drain((clients[client] as (typeof clients)[string])(id), {
      messages: [userMessage('hi')],
    });
    expect(message.toolCalls.length).toBeGreaterThanOrEqual(calls);
  });
});

describe('modelStream read in batches', () => {
  const text = (delta: string): StreamPart => ({ type: 'text-delta', delta });
  const opened = (batches: StreamPart[][]) => ({
    async *[Symbol.asyncIterator]() {
      for (const b of batches) yield* b;
    },
    batches: () => ({
      async *[Symbol.asyncIterator]() {
        yield* batches;
      },
    }),
    message: () => ({ role: 'assistant' as const, content: '', toolCalls: [], invalidToolCalls: [] }),
  });

  it("hands over the parts before a provider's error event, then throws it as ModelStreamError", async () => {
    const batches = [
      [text('a')],
      [text('b'), { type: 'error', code: 'provider-error', message: 'overloaded' }, text('c')],
    ];
    for (const mode of ['parts', 'batches'] as const) {
      const stream = modelStream('test', undefined, () => opened(batches as StreamPart[][]));
      const seen: string[] = [];
      const reading = (async () => {
        if (mode === 'parts') for await (const p of stream) seen.push(p.type === 'text-delta' ? p.delta : p.type);
        else
          for await (const b of stream.batches?.() ?? [])
            for (const p of b) seen.push(p.type === 'text-delta' ? p.delta : p.type);
      })();
      await expect(reading, mode).rejects.toMatchObject({ name: 'ModelStreamError', reason: 'provider-error' });
      expect(seen, mode).toEqual(['a', 'b']);
    }
  });
});
