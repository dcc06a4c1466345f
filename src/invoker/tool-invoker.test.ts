import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { seedTools as inlineTools } from '../../test/seed-tools';
import { defineTool } from '../../worker/define-tool';
import { StateMergeError } from '../errors/state-merge-error';
import { StoreUnavailableError } from '../errors/store-unavailable-error';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { ToolInputValidationError } from '../errors/tool-input-validation-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import { aiMessage, userMessage } from '../messages/constructors';
import { textOf } from '../messages/text-of';
import type { ToolCall, ToolMessage } from '../messages/types';
import { ToolInvoker } from './tool-invoker';
import type { WithTurnResults } from './tool-turn';
import type { Interceptor } from './types';

let n = 0;
const call = (name: string, args: Record<string, unknown> = {}): ToolCall => ({ id: `call_${++n}`, name, args });
const invoker = (options: Partial<ConstructorParameters<typeof ToolInvoker>[0]> = {}) =>
  new ToolInvoker({ inlineTools, ...options });
const contents = (r: { messages: ToolMessage[] }) => r.messages.map((m) => [m.status, textOf(m.content)]);

describe('inputs', () => {
  const ai = aiMessage({ toolCalls: [call('get_weather', { city: 'Paris' })], stopReason: 'tool-calls' });
  it('takes an AI message, a message list, a state object or raw calls', async () => {
    const expected = [['success', 'It is sunny in Paris.']];
    expect(contents(await invoker().run(ai))).toEqual(expected);
    expect(contents(await invoker().run([userMessage('Weather?'), ai]))).toEqual(expected);
    expect(contents(await invoker().run({ messages: [userMessage('Weather?'), ai], user: 'x' }))).toEqual(expected);
    expect(contents(await invoker({ messagesKey: 'history' }).run({ history: [ai] }))).toEqual(expected);
    expect(contents(await invoker().run(ai.toolCalls))).toEqual(expected);
  });

  it('a state-object input is the state (without its messages)', async () => {
    const ai2 = aiMessage({ toolCalls: [call('set_theme', { theme: 'dark' })] });
    const { state } = await invoker().run({ messages: [ai2], user: 'ada' });
    expect(state).toEqual({ user: 'ada', theme: 'dark' });
  });

  it('refuses input with no AI message', async () => {
    await expect(invoker().run([userMessage('hi')])).rejects.toThrow(/no AI message/);
    await expect(invoker().run({ other: [] })).rejects.toThrow(/'messages' to be a message list/);
  });

  it('refuses bad run options with a TypeError naming the option, in run and in stream', async () => {
    const ai = aiMessage({ toolCalls: [call('add', { a: 1, b: 2 })] });
    await expect(invoker().run(ai, null as never)).rejects.toThrow('Expected run options to be an object, got `null`');
    await expect(invoker().run(ai, { state: [] as never })).rejects.toThrow(/`state` to be a plain object/);
    await expect(invoker().run(ai, { signal: 'stop' as never })).rejects.toThrow(/`signal` to be an AbortSignal/);
    await expect(invoker().run(ai, { onEvent: {} as never })).rejects.toThrow(/`onEvent` to be a function/);
    const events = invoker()
      .stream(ai, { signal: {} as never })
      [Symbol.asyncIterator]();
    await expect(events.next()).rejects.toThrow(/`signal` to be an AbortSignal/);
  });

  it('answers in call order whatever order the calls finish in, running them in parallel', async () => {
    const calls = [call('multiply', { a: 3, b: 12 }), call('add', { a: 11, b: 49 })];
    const finished: string[] = [];
    const { messages } = await invoker().run(calls, {
      onEvent: (e) => {
        if (e.type === 'tool-finished') finished.push(e.message.name);
      },
    });
    expect(finished).toEqual(['add', 'multiply']); // add finished first
    expect(messages.map((m) => [m.toolCallId, m.content])).toEqual([
      [calls[0]?.id, '36'],
      [calls[1]?.id, '60'],
    ]);
  });

  it('respects maxConcurrency', async () => {
    let running = 0;
    let peak = 0;
    const counting: Interceptor = async (request, next) => {
      running++;
      peak = Math.max(peak, running);
      try {
        return await next(request);
      } finally {
        running--;
      }
    };
    const calls = Array.from({ length: 6 }, (_, i) => call('multiply', { a: i, b: 2 }));
    await invoker({ maxConcurrency: 2, interceptors: [counting] }).run(calls);
    expect(peak).toBe(2);
    peak = 0;
    await invoker({ interceptors: [counting] }).run(calls);
    expect(peak).toBe(6);
  });

  it('turns invalid tool calls into error messages the model can act on', async () => {
    const ai2 = aiMessage({
      toolCalls: [call('add', { a: 1, b: 1 })],
      invalidToolCalls: [{ id: 'bad_1', name: 'add', args: '{"a": 1,', error: 'The arguments are incomplete JSON' }],
    });
    const { messages } = await invoker({ onError: 'throw' }).run(ai2);
    expect(messages.map((m) => [m.toolCallId, m.status])).toEqual([
      [ai2.toolCalls[0]?.id, 'success'],
      ['bad_1', 'error'],
    ]);
    expect(messages[1]?.content).toBe(
      'Error: The call could not be read: The arguments are incomplete JSON\n Please fix your mistakes.',
    );
  });
});

describe('errors', () => {
  const divide = () => call('divide', { a: 1, b: 0 });
  it("'return' (default): an error ToolMessage with a clear text", async () => {
    const { messages } = await invoker().run([divide(), call('add', { a: 1, b: 2 })]);
    expect(contents({ messages })).toEqual([
      [
        'error',
        "Error: Tool 'divide' (call call_" +
          messages[0]?.toolCallId.slice(5) +
          ') failed: division by zero\n Please fix your mistakes.',
      ],
      ['success', '3'],
    ]);
  });

  it("'throw': the typed error, with the sibling results on it", async () => {
    const calls = [call('add', { a: 1, b: 2 }), divide()];
    const error = (await invoker({ onError: 'throw' })
      .run(calls)
      .catch((e) => e)) as ToolExecutionError & WithTurnResults;
    expect(error).toBeInstanceOf(ToolExecutionError);
    expect(error.toolCallId).toBe(calls[1]?.id);
    expect(error.messages.map((m) => m?.content)).toEqual(['3', undefined]);
  });

  it('a string: that exact text; a function: its text', async () => {
    expect(contents(await invoker({ onError: 'Something went wrong.' }).run([divide()]))).toEqual([
      ['error', 'Something went wrong.'],
    ]);
    const formatter = (error: Error, c: ToolCall) =>
      `${c.name} failed because ${(error.cause as Error).message}; try another b`;
    expect(contents(await invoker({ onError: formatter }).run([divide()]))).toEqual([
      ['error', 'divide failed because division by zero; try another b'],
    ]);
  });

  it('a list of error classes: those become messages, the others throw', async () => {
    const only = invoker({ onError: [ToolInputValidationError, ToolNotFoundError] });
    expect(contents(await only.run([call('add', { a: 'x' })]))[0]?.[0]).toBe('error');
    expect(contents(await only.run([call('nope')]))[0]?.[0]).toBe('error');
    await expect(only.run([divide()])).rejects.toBeInstanceOf(ToolExecutionError);
  });

  it('unknown tools are ToolNotFoundError listing every tool; names are looked up as own properties', async () => {
    for (const name of ['wether', 'toString', '__proto__', 'constructor']) {
      const error = (await invoker({ onError: 'throw' })
        .run([call(name)])
        .catch((e) => e)) as ToolNotFoundError;
      expect(error).toBeInstanceOf(ToolNotFoundError);
      expect(error.message).toMatch(
        new RegExp(
          `^Model called unknown tool '${name.replace(/[_$]/g, '\\$&')}'. Available tools: get_weather, multiply, add, divide`,
        ),
      );
    }
  });

  it('bad arguments are ToolInputValidationError with zod issues', async () => {
    const error = (await invoker({ onError: 'throw' })
      .run([call('add', { a: 1 })])
      .catch((e) => e)) as ToolInputValidationError;
    expect(error).toBeInstanceOf(ToolInputValidationError);
    expect(error.issues[0]?.path).toEqual(['b']);
  });
});

describe('results and state', () => {
  it('keeps an artifact beside the text', async () => {
    const { messages } = await invoker().run([call('report')]);
    expect(messages[0]).toMatchObject({ content: '2 rows', status: 'success', artifact: [{ a: 1 }, { a: 2 }] });
  });

  it("resultFormat 'json' writes every result as JSON", async () => {
    const { messages } = await invoker({ resultFormat: 'json' }).run([
      call('get_weather', { city: 'Oslo' }),
      call('add', { a: 1, b: 1 }),
    ]);
    expect(messages.map((m) => m.content)).toEqual(['"It is sunny in Oslo."', '2']);
  });

  it('injects the whole state or one field, and the context', async () => {
    const state = { user: { name: 'Ada' }, theme: 'light' };
    const { messages } = await invoker().run([call('greet'), call('greet_all')], { state, context: { locale: 'fr' } });
    expect(messages.map((m) => m.content)).toEqual(['Hello, Ada!', 'Hello, Ada (fr)']);
  });

  it('merges parallel updates with reducers: append for lists, replace otherwise', async () => {
    const calls = [
      call('add_to_cart', { item: 'tea' }),
      call('add_to_cart', { item: 'milk' }),
      call('set_theme', { theme: 'dark' }),
    ];
    const { state, messages } = await invoker({ reducers: { cart: 'append' } }).run(calls, {
      state: { cart: ['bread'], theme: 'light' },
    });
    expect(state).toEqual({ cart: ['bread', 'tea', 'milk'], theme: 'dark' });
    expect(messages.map((m) => m.content)).toEqual(['Added tea', 'Added milk', 'Theme dark']);
  });

  it('a reducer function folds the updates', async () => {
    const calls = [call('add_to_cart', { item: 'tea' }), call('add_to_cart', { item: 'milk' })];
    const count = (current: unknown, update: unknown) => ((current as number) ?? 0) + (update as unknown[]).length;
    const { state } = await invoker({ reducers: { cart: count } }).run(calls, { state: { cart: 10 } });
    expect(state).toEqual({ cart: 12 });
  });

  it('conflicting writes to a replace key in one turn are a StateMergeError', async () => {
    const calls = [call('set_theme', { theme: 'dark' }), call('set_theme', { theme: 'light' })];
    const error = (await invoker()
      .run(calls)
      .catch((e) => e)) as StateMergeError;
    expect(error).toBeInstanceOf(StateMergeError);
    expect(error.key).toBe('theme');
    expect(error.toolCallIds).toEqual([calls[0]?.id, calls[1]?.id]);
    // the same value twice is no conflict
    const same = [call('set_theme', { theme: 'dark' }), call('set_theme', { theme: 'dark' })];
    expect((await invoker().run(same)).state).toEqual({ theme: 'dark' });
  });
});

describe('interceptors', () => {
  it('compose in order, around the call', async () => {
    const log: string[] = [];
    const tag =
      (name: string): Interceptor =>
      async (request, next) => {
        log.push(`${name} in`);
        const outcome = await next(request);
        log.push(`${name} out`);
        return outcome;
      };
    await invoker({ interceptors: [tag('outer'), tag('inner')] }).run([call('add', { a: 1, b: 1 })]);
    expect(log).toEqual(['outer in', 'inner in', 'inner out', 'outer out']);
  });

  it('override changes a copy of the request (arguments, state)', async () => {
    const double: Interceptor = (request, next) =>
      next(
        request.override({
          toolCall: { ...request.toolCall, args: { a: 10, b: 20 } },
          state: { user: { name: 'Grace' } },
        }),
      );
    const { messages } = await invoker({ interceptors: [double] }).run([call('add', { a: 1, b: 1 }), call('greet')], {
      state: { user: { name: 'Ada' } },
    });
    expect(messages.map((m) => m.content)).toEqual(['30', 'Hello, Grace!']);
  });

  it('hands the pool the state and context each call has, an override included', async () => {
    const seen: { name: string; state: unknown; context: unknown }[] = [];
    const pool = {
      specs: async () => ['a', 'b', 'c'].map((name) => ({ name, description: name, inputSchema: { type: 'object' } })),
      call: async (tc: ToolCall, options: { state?: unknown; context?: unknown }) => {
        seen.push({ name: tc.name, state: options.state, context: options.context });
        return { toolCallId: tc.id, name: tc.name, content: 'ok', kind: 'text' };
      },
    };
    const onlyB: Interceptor = (request, next) =>
      next(request.toolCall.name === 'b' ? request.override({ state: { who: 'b' }, context: 'ctx-b' }) : request);
    const run = new ToolInvoker({ pool: pool as never, interceptors: [onlyB] });
    await run.run([call('a'), call('b'), call('c')], { state: { who: 'all' }, context: 'ctx' });
    await run.run([call('a')], { state: { who: 'next turn' } });
    expect(seen).toEqual([
      { name: 'a', state: { who: 'all' }, context: 'ctx' },
      { name: 'b', state: { who: 'b' }, context: 'ctx-b' },
      { name: 'c', state: { who: 'all' }, context: 'ctx' },
      { name: 'a', state: { who: 'next turn' }, context: undefined },
    ]);
  });

  it("hands the pool its timeoutMs as the default under the tools' own, and a call's own limit from an interceptor", async () => {
    const seen: { name: string; timeoutMs?: number; defaultTimeoutMs?: number }[] = [];
    const pool = {
      specs: async () => ['a', 'b'].map((name) => ({ name, description: name, inputSchema: { type: 'object' } })),
      call: async (tc: ToolCall, options: { timeoutMs?: number; defaultTimeoutMs?: number }) => {
        const { timeoutMs, defaultTimeoutMs } = options;
        seen.push({ name: tc.name, ...(timeoutMs && { timeoutMs }), ...(defaultTimeoutMs && { defaultTimeoutMs }) });
        return { toolCallId: tc.id, name: tc.name, content: 'ok', kind: 'text' };
      },
    };
    const bQuick: Interceptor = (request, next) =>
      next(request.toolCall.name === 'b' ? request.override({ timeoutMs: 250 }) : request);
    await new ToolInvoker({ pool: pool as never, timeoutMs: 60_000, interceptors: [bQuick] }).run([
      call('a'),
      call('b'),
    ]);
    await new ToolInvoker({ pool: pool as never }).run([call('a')]);
    expect(seen).toEqual([
      { name: 'a', defaultTimeoutMs: 60_000 },
      { name: 'b', timeoutMs: 250, defaultTimeoutMs: 60_000 },
      { name: 'a' },
    ]);
  });

  it('an inline tool that uses the store of an invoker without one gets StoreUnavailableError, not undefined', async () => {
    const deleted: string[] = [];
    const deleteNote = defineTool({
      name: 'delete_note',
      description: 'Delete a note.',
      input: z.object({ key: z.string() }),
      run: async ({ key }, { store }) => {
        await store.delete(['notes'], key);
        deleted.push(key);
        return `Deleted ${key}`;
      },
    });
    const invoker = new ToolInvoker({ inlineTools: [deleteNote], onError: 'throw' });
    const failed = invoker.run([{ id: 'd1', name: 'delete_note', args: { key: 'groceries' } }]);
    await expect(failed).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(failed).rejects.toThrow(
      "Tool 'delete_note' (call d1) used runtime.store, but it has none: its invoker has no store: pass `store` to the ToolInvoker",
    );
    expect(deleted).toEqual([]);
  });

  it('retry: call next again after a failure', async () => {
    const retry: Interceptor = async (request, next) => {
      for (let attempt = 1; ; attempt++) {
        try {
          return await next(request);
        } catch (error) {
          if (attempt >= 3) throw error;
        }
      }
    };
    const { messages } = await invoker({ interceptors: [retry] }).run([call('flaky', { failures: 2 })]);
    expect(messages[0]?.content).toBe('succeeded on attempt 3');
  });

  it('block: an admin-only delete refused without running the tool, and results replaced', async () => {
    const ran: string[] = [];
    const adminsOnly: Interceptor = async (request, next) => {
      if (request.toolCall.name === 'delete_user' && (request.context as { role?: string })?.role !== 'admin') {
        return { content: 'Refused: only admins may delete users.', status: 'error' };
      }
      ran.push(request.toolCall.name);
      const outcome = await next(request);
      return { ...outcome, content: outcome.content.toUpperCase() };
    };
    const asUser = await invoker({ interceptors: [adminsOnly] }).run([call('delete_user', { userId: 'u1' })], {
      context: { role: 'user' },
    });
    expect(contents(asUser)).toEqual([['error', 'Refused: only admins may delete users.']]);
    expect(ran).toEqual([]);
    const asAdmin = await invoker({ interceptors: [adminsOnly] }).run([call('delete_user', { userId: 'u1' })], {
      context: { role: 'admin' },
    });
    expect(contents(asAdmin)).toEqual([['success', 'DELETED U1']]);
  });

  it('sees the spec of the tool called', async () => {
    const specs: (string | undefined)[] = [];
    const spy: Interceptor = (request, next) => {
      specs.push(request.spec?.description);
      return next(request);
    };
    await invoker({ interceptors: [spy], onError: 'return' }).run([call('add', { a: 1, b: 1 }), call('nope')]);
    expect(specs).toEqual(['Add two numbers.', undefined]);
  });
});
