// The invoker's events, its helpers, and turns whose calls arrive one by one (tool-invoker.test.ts: inputs, errors, results, interceptors).
import { describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { cancelled, seedTools as inlineTools } from '../../test/seed-tools';
import { defineTool } from '../../worker/define-tool';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import { aiMessage, userMessage } from '../messages/constructors';
import { textOf } from '../messages/text-of';
import type { ToolCall, ToolMessage } from '../messages/types';
import { ToolInvoker } from './tool-invoker';
import { toolsCondition } from './turn-input';
import type { Interceptor, ToolEvent } from './types';

let n = 0;
const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ id: `call_${++n}`, name, args });
const invoker = (options: Partial<ConstructorParameters<typeof ToolInvoker>[0]> = {}) =>
  new ToolInvoker({ inlineTools, ...options });
const contents = (r: { messages: ToolMessage[] }) => r.messages.map((m) => [m.status, textOf(m.content)]);

describe('events', () => {
  it('per call: started, deltas, then exactly one terminal event; done last', async () => {
    const calls = [call('slow_counter', { n: 3 }), call('divide', { a: 1, b: 0 })];
    const events: ToolEvent[] = [];
    for await (const event of invoker().stream(calls)) events.push(event);
    const of = (id: string | undefined) =>
      events.filter((e) => 'toolCallId' in e && e.toolCallId === id).map((e) => e.type);
    expect(of(calls[0]?.id)).toEqual([
      'tool-started',
      'tool-output-delta',
      'tool-output-delta',
      'tool-output-delta',
      'tool-finished',
    ]);
    expect(of(calls[1]?.id)).toEqual(['tool-started', 'tool-error']);
    expect(events.at(-1)?.type).toBe('done');
    const deltas = events.filter((e) => e.type === 'tool-output-delta').map((e) => (e as { delta: unknown }).delta);
    expect(deltas).toEqual([{ tick: 1 }, { tick: 2 }, { tick: 3 }]);
  });

  it("tool-finished carries what each tool gave back: its value read back, a withUpdate's result, an artifact's text", async () => {
    const calls = [
      call('multiply', { a: 3, b: 12 }),
      call('get_weather', { city: 'Paris' }),
      call('set_theme', { theme: 'dark' }),
      call('report'),
      call('delete_user', { userId: 'u7' }),
    ];
    const blockDelete: Interceptor = (request, next) =>
      request.toolCall.name === 'delete_user' ? { content: 'Not now.', status: 'error' } : next(request);
    const outputs = async (options: Partial<ConstructorParameters<typeof ToolInvoker>[0]>) => {
      const found: Record<string, unknown> = {};
      for await (const e of invoker({ interceptors: [blockDelete], ...options }).stream(calls))
        if (e.type === 'tool-finished') found[e.name] = e.output;
      return found;
    };
    expect(await outputs({})).toEqual({
      multiply: 36,
      get_weather: 'It is sunny in Paris.',
      set_theme: 'Theme dark',
      report: '2 rows',
      // An outcome an interceptor made up is text.
      delete_user: 'Not now.',
    });
    // With resultFormat 'json' the model reads JSON; the output is still the value.
    expect(await outputs({ resultFormat: 'json' })).toMatchObject({
      multiply: 36,
      get_weather: 'It is sunny in Paris.',
    });
  });

  it("a tool's images go in its message beside the text; images an interceptor makes up are checked", async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const chart = defineTool({
      name: 'chart',
      description: 'Draw a chart.',
      input: z.object({ title: z.string() }),
      run: ({ title }) => ({
        content: [
          { type: 'text', text: `Chart: ${title}` },
          { type: 'image', data: png },
        ],
      }),
    });
    const image = { type: 'image' as const, data: Buffer.from(png).toString('base64'), mediaType: 'image/png' };
    const forged: Interceptor = (request, next) =>
      request.toolCall.args.title === 'forged'
        ? { content: 'x', media: [{ type: 'image', data: 'nope nope' }] }
        : request.toolCall.args.title === 'leak'
          ? { content: 'x', media: [{ type: 'image', data: 'https://evil.example/?secret=1' }] }
          : next(request);
    const events: ToolEvent[] = [];
    const [ok, bad, leak] = [
      call('chart', { title: 'Sales' }),
      call('chart', { title: 'forged' }),
      call('chart', { title: 'leak' }),
    ];
    for await (const e of new ToolInvoker({ inlineTools: [chart], interceptors: [forged] }).stream([ok, bad, leak]))
      events.push(e);
    const done = events.at(-1) as Extract<ToolEvent, { type: 'done' }>;
    expect(done.messages[0]).toMatchObject({ content: [{ type: 'text', text: 'Chart: Sales' }, image] });
    expect(events.find((e) => e.type === 'tool-finished')).toMatchObject({ output: 'Chart: Sales' });
    expect(done.messages[1]).toMatchObject({ status: 'error' });
    expect(textOf((done.messages[1] as ToolMessage).content)).toMatch(
      /its images and files are not usable \(media\.0\.data: Invalid data/,
    );
    expect(textOf((done.messages[2] as ToolMessage).content)).toMatch(/not usable \(a URL, not the image itself\)/);
  });

  it('onEvent sees the same events as stream', async () => {
    const seen: string[] = [];
    const streamed: string[] = [];
    for await (const e of invoker().stream([call('add', { a: 1, b: 1 })], { onEvent: (e) => seen.push(e.type) }))
      streamed.push(e.type);
    expect(seen).toEqual(streamed);
    expect(streamed).toEqual(['tool-started', 'tool-finished', 'done']);
  });

  it('breaking out of the stream cancels the running tools', async () => {
    const c = call('slow_counter', { n: 1000 });
    for await (const event of invoker().stream([c])) {
      if (event.type === 'tool-output-delta') break;
    }
    expect(cancelled).toContain(c.id);
  });

  it('an aborted signal rejects the run with its reason and cancels the tools', async () => {
    const c = call('slow_counter', { n: 1000 });
    const controller = new AbortController();
    // Aborted once the tool is running: its first tick is out.
    const stopOnTick = (e: ToolEvent) => e.type === 'tool-output-delta' && controller.abort(new Error('user left'));
    await expect(invoker().run([c], { signal: controller.signal, onEvent: stopOnTick })).rejects.toThrow('user left');
    // The run rejects at once; the tool, between two ticks, sees its signal at its next wait.
    await vi.waitFor(() => expect(cancelled).toContain(c.id), { timeout: 2_000, interval: 1 });
  });
});

describe('helpers', () => {
  it('toolsCondition', () => {
    expect(toolsCondition([aiMessage({ toolCalls: [call('add')] })])).toBe('tools');
    expect(toolsCondition({ messages: [aiMessage('done')] })).toBe('end');
    expect(toolsCondition([])).toBe('end');
    expect(toolsCondition([userMessage('hi')])).toBe('end');
  });

  it('toJSON / fromJSON round-trip the configuration', async () => {
    const original = invoker({
      onError: [ToolNotFoundError],
      resultFormat: 'json',
      maxConcurrency: 3,
      reducers: { cart: 'append' },
      timeoutMs: 500,
    });
    const json = JSON.parse(JSON.stringify(original.toJSON()));
    expect(json).toEqual({
      onError: { errors: ['ToolNotFoundError'] },
      resultFormat: 'json',
      maxConcurrency: 3,
      messagesKey: 'messages',
      reducers: { cart: 'append' },
      timeoutMs: 500,
      inlineTools: inlineTools.map((t) => t.name),
    });
    const copy = ToolInvoker.fromJSON(json, { inlineTools });
    expect(copy.toJSON()).toEqual(json);
    expect(contents(await copy.run([call('nope')]))[0]?.[0]).toBe('error');
    expect(() => invoker({ onError: () => 'x' }).toJSON()).toThrow(/onError is a function/);
    expect(() => ToolInvoker.fromJSON(json, {})).toThrow(/needs the inline tools it names/);
  });

  it('refuses duplicate tool names and bad options', () => {
    expect(() => new ToolInvoker({ inlineTools: [inlineTools[0], inlineTools[0]] as never })).toThrow(
      InvalidToolSpecError,
    );
    expect(() => new ToolInvoker({})).toThrow(/needs a pool, inline tools or tool sources/);
    expect(() => invoker({ maxConcurrency: 0 })).toThrow(/`maxConcurrency` to be a positive integer/);
    expect(() => invoker({ onError: 42 as never })).toThrow(/`onError` to be/);
    expect(() => new ToolInvoker(5 as never)).toThrow(/ToolInvoker options to be an object, got `5`/);
    expect(() => new ToolInvoker({ inlineTools: [{ name: 'raw', run: () => 1 }] as never })).toThrow(
      /inline tools made by defineTool\(\)/,
    );
    expect(() => invoker({ interceptors: (() => {}) as never })).toThrow(/`interceptors` to be a list/);
    expect(() => new ToolInvoker({ inlineTools: inlineTools[0] as never })).toThrow(/`inlineTools` to be a list/);
    expect(() => invoker({ reducers: { total: 'sum' as never } })).toThrow(
      /reducer of state key 'total' to be 'replace', 'append' or a function, got `'sum'`/,
    );
    expect(() => invoker({ resultFormat: 'yaml' as never })).toThrow(/`resultFormat` to be 'string' or 'json'/);
    expect(() => invoker({ timeoutMs: -5 })).toThrow(/`timeoutMs` to be a positive number/);
    expect(() => invoker({ messagesKey: '' })).toThrow(/`messagesKey` to be a non-empty string/);
  });

  it('lists inline specs as not isolated', async () => {
    const specs = await invoker().specs();
    expect(specs.find((s) => s.name === 'add')).toMatchObject({ name: 'add', isolated: false });
  });
});

describe('a turn whose calls arrive one by one (begin)', () => {
  it('starts each call the moment it is added, and answers in the order they were added', async () => {
    const events: string[] = [];
    const turn = invoker().begin({ onEvent: (e) => events.push(`${e.type}:${'toolCallId' in e ? e.toolCallId : ''}`) });
    const first = call('multiply', { a: 3, b: 12 });
    turn.add(first);
    // Started before the second call exists (the specs of inline tools load first, then it runs).
    await vi.waitFor(() => expect(events).toContain(`tool-started:${first.id}`), { timeout: 2_000, interval: 1 });
    const second = call('add', { a: 11, b: 49 });
    turn.add(second);
    turn.addInvalid({ id: 'bad_1', name: 'add', args: '{"a":', error: 'cut off' });
    const { messages } = await turn.close();
    expect(messages.map((m) => [m.toolCallId, m.content])).toEqual([
      [first.id, '36'],
      [second.id, '60'],
      ['bad_1', expect.stringContaining('cut off')],
    ]);
    expect(events.at(-1)).toBe('done:');
    expect(() => turn.add(call('add', { a: 1, b: 1 }))).toThrow(/closed/);
  });

  it('keeps maxConcurrency across calls added later', async () => {
    let running = 0;
    let most = 0;
    const counting: Interceptor = async (request, next) => {
      running++;
      most = Math.max(most, running);
      try {
        return await next(request);
      } finally {
        running--;
      }
    };
    const turn = invoker({ maxConcurrency: 2, interceptors: [counting] }).begin();
    for (let i = 0; i < 6; i++) turn.add(call('multiply', { a: i, b: 2 }));
    const { messages } = await turn.close();
    expect(messages.map((m) => m.content)).toEqual(['0', '2', '4', '6', '8', '10']);
    expect(most).toBe(2);
  });

  it('refuses what is not a tool call with a TypeError, and bad options before anything runs', () => {
    const turn = invoker().begin();
    expect(() => turn.add({ name: 'add' } as never)).toThrow(/Expected a tool call \{ id, name, args \}/);
    expect(() => invoker().begin({ signal: 1 as never })).toThrow(/`signal` to be an AbortSignal/);
  });

  it('an aborted turn rejects with the reason; an empty turn closes at once', async () => {
    const controller = new AbortController();
    const turn = invoker().begin({ signal: controller.signal });
    turn.add(call('multiply', { a: 1, b: 2 }));
    controller.abort(new Error('stop'));
    await expect(turn.close()).rejects.toThrow('stop');
    await expect(invoker().begin().close()).resolves.toEqual({ messages: [], state: {} });
  });
});
