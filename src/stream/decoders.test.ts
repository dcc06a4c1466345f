// Hand-written streams for each format: the core cases and the quirks, without ../shared.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { partsOfType } from '../../test/stream-helpers';
import { parseToolCall } from '../messages/parse-tool-call';
import { createStreamDecoder } from './create-stream-decoder';
import type { StreamFormat, StreamPart } from './stream-part';

function run(format: StreamFormat, events: unknown[]) {
  const decoder = createStreamDecoder(format);
  const parts: StreamPart[] = [];
  for (const event of events) parts.push(...structuredClone(decoder.push(event)));
  parts.push(...decoder.flush());
  return { parts, message: decoder.finish(), types: parts.map((p) => p.type) };
}

const chunk = (
  delta: Record<string, unknown>,
  finish_reason: string | null = null,
  extra: Record<string, unknown> = {},
) => ({
  id: 'chatcmpl-1',
  choices: [{ index: 0, delta, finish_reason }],
  ...extra,
});
const tc = (index: number | undefined, fields: { id?: string; name?: string; args?: string }) => ({
  ...(index === undefined ? {} : { index }),
  ...(fields.id === undefined ? {} : { id: fields.id }),
  type: 'function',
  function: {
    ...(fields.name === undefined ? {} : { name: fields.name }),
    ...(fields.args === undefined ? {} : { arguments: fields.args }),
  },
});

describe('openai-chat decoder', () => {
  it('streams text, then calls whose index starts at 1, with "" names on continuations', () => {
    const { parts, message, types } = run('openai-chat', [
      chunk({ role: 'assistant', content: 'Let me ', tool_calls: [] }),
      chunk({ content: 'check.', tool_calls: [] }),
      chunk({ tool_calls: [tc(1, { id: 'c1', name: 'weather', args: '' })] }),
      chunk({ tool_calls: [tc(1, { name: '', args: '{"city": "Pa' })] }),
      chunk({ tool_calls: [tc(1, { name: '', args: 'ris"}' })] }),
      chunk({}, 'tool_calls'),
      chunk({}, null, { choices: [], usage: { prompt_tokens: 7, completion_tokens: 3, total_tokens: 10 } }),
    ]);
    expect(types).toEqual([
      'text-delta',
      'text-delta',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-delta',
      'tool-call',
      'finish',
    ]);
    expect(partsOfType(parts, 'tool-input-delta').map((p) => p.partialArgs)).toEqual([
      { city: 'Pa' },
      { city: 'Paris' },
    ]);
    expect(partsOfType(parts, 'finish')[0]).toEqual({
      type: 'finish',
      stopReason: 'tool-calls',
      usage: { inputTokens: 7, outputTokens: 3, totalTokens: 10 },
    });
    expect(message).toMatchObject({
      content: 'Let me check.',
      toolCalls: [{ id: 'c1', name: 'weather', args: { city: 'Paris' } }],
    });
  });

  it('ends a call as soon as the next one starts, when its arguments are complete', () => {
    const { types } = run('openai-chat', [
      chunk({ tool_calls: [tc(0, { id: 'a', name: 'add', args: '{"x":1}' })] }),
      chunk({ tool_calls: [tc(1, { id: 'b', name: 'add', args: '{"x":' })] }),
      chunk({ tool_calls: [tc(1, { args: '2}' })] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(types).toEqual([
      'tool-input-start',
      'tool-input-delta',
      'tool-call',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-delta',
      'tool-call',
      'finish',
    ]);
  });

  it('ends a call in the chunk that closes its argument object, before anything else arrives', () => {
    const decoder = createStreamDecoder('openai-chat');
    decoder.push(chunk({ tool_calls: [tc(0, { id: 'a', name: 'add', args: '{"x": {"y":' })] }));
    expect(decoder.push(chunk({ tool_calls: [tc(0, { args: ' 1}' })] })).map((p) => p.type)).toEqual([
      'tool-input-delta',
    ]);
    const closing = decoder.push(chunk({ tool_calls: [tc(0, { args: '}' })] }));
    expect(closing.map((p) => p.type)).toEqual(['tool-input-delta', 'tool-call']);
    expect(closing[1]).toMatchObject({ toolCall: { id: 'a', args: { x: { y: 1 } } } });
    // A brace inside a string does not close it; a later fragment after the close is ignored.
    decoder.push(chunk({ tool_calls: [tc(1, { id: 'b', name: 'echo', args: '{"s": "}' })] }));
    expect(decoder.snapshot().toolCalls).toHaveLength(2);
    const end = decoder.push(chunk({ tool_calls: [tc(1, { args: '"}' })] }));
    expect(end.map((p) => p.type)).toEqual(['tool-input-delta', 'tool-call']);
    expect(decoder.push(chunk({ tool_calls: [tc(1, { args: ' ' })] }))).toEqual([]);
    expect(decoder.finish().toolCalls.map((c) => c.args)).toEqual([{ x: { y: 1 } }, { s: '}' }]);
  });

  it('keeps calls apart that share index 0 but have different ids, and calls with no index', () => {
    const { message } = run('openai-chat', [
      chunk({ tool_calls: [tc(0, { id: 'x1', name: 'w', args: '{"c":"A"}' })] }),
      chunk({ tool_calls: [tc(0, { id: 'x2', name: 'w', args: '{"c":"B"}' })] }),
      chunk({
        tool_calls: [
          tc(undefined, { id: 'm1', name: 'w', args: '{"c":"C"}' }),
          tc(undefined, { id: 'm2', name: 'w', args: '{"c":"D"}' }),
        ],
      }),
      chunk({}, 'tool_calls'),
    ]);
    expect(message.toolCalls.map((c) => [c.id, c.args.c])).toEqual([
      ['x1', 'A'],
      ['x2', 'B'],
      ['m1', 'C'],
      ['m2', 'D'],
    ]);
  });

  it('merges an id resent on every chunk, and interleaved parallel calls by index', () => {
    const { message } = run('openai-chat', [
      chunk({
        tool_calls: [tc(0, { id: 'a', name: 'f', args: '{"n":' }), tc(1, { id: 'b', name: 'g', args: '{"m":' })],
      }),
      chunk({ tool_calls: [tc(1, { id: 'b', args: '2}' }), tc(0, { id: 'a', args: '1}' })] }),
      chunk({}, 'stop'),
    ]);
    expect(message.toolCalls).toEqual([
      { id: 'a', name: 'f', args: { n: 1 } },
      { id: 'b', name: 'g', args: { m: 2 } },
    ]);
    expect(message.stopReason).toBe('tool-calls');
  });

  it('waits for a name that comes after the first fragment', () => {
    const { message, types } = run('openai-chat', [
      chunk({ tool_calls: [tc(0, { id: 'late', args: '{"a"' })] }),
      chunk({ tool_calls: [tc(0, { name: 'named', args: ':1}' })] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(types.slice(0, 2)).toEqual(['tool-input-start', 'tool-input-delta']);
    expect(message.toolCalls).toEqual([{ id: 'late', name: 'named', args: { a: 1 } }]);
  });

  it('a call whose name never comes is an invalid call at the end, with no start part', () => {
    const { parts, message } = run('openai-chat', [
      chunk({ tool_calls: [tc(0, { id: 'nameless', args: '{"a":1}' })] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(parts.map((p) => p.type)).toEqual(['invalid-tool-call', 'finish']);
    expect(message.invalidToolCalls).toEqual([
      { id: 'nameless', args: '{"a":1}', error: 'The tool call has no tool name.' },
    ]);
  });

  it('a truncated stream: complete calls kept, cut-off ones invalid with their text, a truncated diagnostic', () => {
    const decoder = createStreamDecoder('openai-chat');
    decoder.push(chunk({ tool_calls: [tc(0, { id: 'ok', name: 'f', args: '{"a":1}' })] }));
    decoder.push(chunk({ tool_calls: [tc(1, { id: 'cut', name: 'g', args: '{"b": [1, 2' })] }));
    const snapshot = decoder.snapshot();
    expect(snapshot.toolCalls).toEqual([
      { id: 'ok', name: 'f', args: { a: 1 } },
      { id: 'cut', name: 'g', args: { b: [1, 2] } },
    ]);
    const tail = decoder.flush();
    expect(tail.map((p) => p.type)).toEqual(['invalid-tool-call', 'error']);
    expect(tail[1]).toMatchObject({ type: 'error', code: 'truncated' });
    const message = decoder.finish();
    expect(message.stopReason).toBeUndefined();
    expect(message.toolCalls).toEqual([{ id: 'ok', name: 'f', args: { a: 1 } }]);
    expect(message.invalidToolCalls).toEqual([
      { id: 'cut', name: 'g', args: '{"b": [1, 2', error: expect.stringMatching(/incomplete JSON/) },
    ]);
  });

  it('a snapshot does not change when the stream goes on', () => {
    const decoder = createStreamDecoder('openai-chat');
    decoder.push(chunk({ tool_calls: [tc(0, { id: 'a', name: 'f', args: '{"list": [1' })] }));
    const before = decoder.snapshot();
    decoder.push(chunk({ tool_calls: [tc(0, { args: ', 2]}' })] }));
    expect(before.toolCalls[0]?.args).toEqual({ list: [1] });
    expect(decoder.snapshot().toolCalls[0]?.args).toEqual({ list: [1, 2] });
  });

  it('streams a long argument in many deltas: the call gets the value they built, not a second parse', () => {
    const content = 'A line of the "file" with a tab\tand café ☕.\n'.repeat(25_000); // about 1 MB
    const text = JSON.stringify({ path: 'notes.md', content });
    const decoder = createStreamDecoder('openai-chat');
    decoder.push(chunk({ tool_calls: [tc(0, { id: 'w', name: 'write', args: '' })] }));
    let last: Record<string, unknown> | undefined;
    let call: StreamPart | undefined;
    for (let at = 0; at < text.length; at += 300) {
      for (const part of decoder.push(chunk({ tool_calls: [tc(0, { args: text.slice(at, at + 300) })] }))) {
        if (part.type === 'tool-input-delta') last = part.partialArgs;
        if (part.type === 'tool-call') call = part;
      }
    }
    expect(call).toEqual({
      type: 'tool-call',
      toolCall: { id: 'w', name: 'write', args: { path: 'notes.md', content } },
    });
    // The very object the deltas showed: the arguments were read once, as they came.
    expect(call?.type === 'tool-call' && call.toolCall.args).toBe(last);
    expect(decoder.finish().toolCalls).toEqual([{ id: 'w', name: 'write', args: { path: 'notes.md', content } }]);
  });

  it('keeps a scalar argument text whole (a call is ended early only when its object closes)', () => {
    // fast-check's counterexample: '0 ' then ' ' made an invalid call of '0 ', the last piece lost.
    const decoder = createStreamDecoder('openai-chat');
    decoder.push(chunk({ tool_calls: [tc(0, { id: 'c', name: 'f', args: '' })] }));
    for (const piece of ['0 ', ' ']) decoder.push(chunk({ tool_calls: [tc(0, { args: piece })] }));
    decoder.push(chunk({}, 'tool_calls'));
    const whole = parseToolCall({ id: 'c', name: 'f', args: '0  ' });
    expect(decoder.finish().invalidToolCalls).toEqual(whole.valid ? [] : [whole.invalidToolCall]);
  });

  it('judges any argument text, however it is cut, as parseToolCall judges it whole', () => {
    const texts = fc.oneof(
      fc.json(),
      fc.json().map((t) => t.slice(0, Math.floor(t.length / 2))),
      // (Not an object followed by more: this decoder ends a call the moment its object closes.)
      fc.string({ maxLength: 12 }).filter((t) => !t.trimStart().startsWith('{')),
      fc.constantFrom('', '   ', '5', '12 ', '[1]', 'tru', '{"a": tru', '{"a" 1}', '"x'),
    );
    fc.assert(
      fc.property(texts, fc.array(fc.nat(), { maxLength: 6 }), (text, cuts) => {
        const at = [...new Set(cuts.map((c) => c % (text.length + 1)))].sort((a, b) => a - b);
        const pieces = [...at, text.length].map((end, k, ends) => text.slice(k ? ends[k - 1] : 0, end));
        const decoder = createStreamDecoder('openai-chat');
        decoder.push(chunk({ tool_calls: [tc(0, { id: 'c', name: 'f', args: '' })] }));
        for (const piece of pieces) decoder.push(chunk({ tool_calls: [tc(0, { args: piece })] }));
        const raw = { id: 'c', name: 'f', args: text };
        const partial = parseToolCall(raw, { partial: true });
        const snapshot = decoder.snapshot();
        expect(partial.valid ? { toolCalls: [partial.toolCall] } : { toolCalls: [] }).toEqual({
          toolCalls: snapshot.toolCalls,
        });
        decoder.push(chunk({}, 'tool_calls'));
        const whole = parseToolCall(raw);
        const message = decoder.finish();
        expect(whole.valid ? [[whole.toolCall], []] : [[], [whole.invalidToolCall]]).toEqual([
          message.toolCalls,
          message.invalidToolCalls,
        ]);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws on hostile events and says what it skipped', () => {
    const decoder = createStreamDecoder('openai-chat');
    const junk: unknown[] = [
      null,
      'x',
      42,
      [],
      { choices: 5 },
      { choices: [{ delta: { tool_calls: [null, 5, { function: 'f' }] } }] },
    ];
    const parts = junk.flatMap((e) => decoder.push(e));
    expect(partsOfType(parts, 'error').map((p) => p.code)).toEqual([
      'malformed-event',
      'malformed-event',
      'malformed-event',
      'malformed-event',
    ]);
    expect(() => decoder.finish()).not.toThrow();
  });

  it('keeps __proto__ and toString tool names and argument keys as plain data', () => {
    const { message } = run('openai-chat', [
      chunk({ tool_calls: [tc(0, { id: 'p', name: '__proto__', args: '{"__proto__": {"polluted": 1}}' })] }),
      chunk({ tool_calls: [tc(1, { id: 't', name: 'toString', args: '{"constructor": 1}' })] }),
      chunk({}, 'tool_calls'),
    ]);
    expect(message.toolCalls.map((c) => c.name)).toEqual(['__proto__', 'toString']);
    expect(({} as { polluted?: number }).polluted).toBeUndefined();
    expect(Object.getPrototypeOf(message.toolCalls[0]?.args)).toBe(Object.prototype);
  });

  it('reports a provider error event', () => {
    const { parts } = run('openai-chat', [{ error: { message: 'Rate limited' } }]);
    expect(parts[0]).toMatchObject({
      type: 'error',
      code: 'provider-error',
      message: 'The provider reported an error: Rate limited',
    });
  });
});

describe('anthropic decoder', () => {
  const start = {
    type: 'message_start',
    message: { id: 'msg_1', model: 'claude', usage: { input_tokens: 20, output_tokens: 1 } },
  };
  it('keeps signed thinking, shares block indexes with text, reads "" as {}', () => {
    const { message, types } = run('anthropic', [
      start,
      { type: 'content_block_start', index: 0, content_block: { type: 'thinking', thinking: '' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'thinking_delta', thinking: 'Hmm.' } },
      { type: 'content_block_delta', index: 0, delta: { type: 'signature_delta', signature: 'SIG' } },
      { type: 'content_block_stop', index: 0 },
      { type: 'content_block_start', index: 1, content_block: { type: 'text', text: '' } },
      { type: 'content_block_delta', index: 1, delta: { type: 'text_delta', text: 'Now.' } },
      { type: 'content_block_stop', index: 1 },
      {
        type: 'content_block_start',
        index: 2,
        content_block: { type: 'tool_use', id: 'toolu_1', name: 'now', input: {} },
      },
      { type: 'content_block_delta', index: 2, delta: { type: 'input_json_delta', partial_json: '' } },
      { type: 'content_block_stop', index: 2 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' }, usage: { output_tokens: 9 } },
      { type: 'message_stop' },
    ]);
    expect(types).toEqual(['reasoning-delta', 'text-delta', 'tool-input-start', 'tool-call', 'finish']);
    expect(message).toMatchObject({
      id: 'msg_1',
      content: 'Now.',
      reasoning: 'Hmm.',
      stopReason: 'tool-calls',
      toolCalls: [{ id: 'toolu_1', name: 'now', args: {} }],
      usage: { inputTokens: 20, outputTokens: 9, totalTokens: 29 },
      metadata: {
        anthropic: { model: 'claude', thinking: [{ type: 'thinking', thinking: 'Hmm.', signature: 'SIG' }] },
      },
    });
  });

  it('takes a whole input from content_block_start when no delta comes', () => {
    const { message } = run('anthropic', [
      start,
      {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 't', name: 'f', input: { a: 1 } },
      },
      { type: 'content_block_stop', index: 0 },
      { type: 'message_delta', delta: { stop_reason: 'tool_use' } },
      { type: 'message_stop' },
    ]);
    expect(message.toolCalls).toEqual([{ id: 't', name: 'f', args: { a: 1 } }]);
  });

  it('reports an error event and ignores unknown event types', () => {
    const { parts } = run('anthropic', [
      start,
      { type: 'brand_new_event' },
      { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } },
    ]);
    expect(partsOfType(parts, 'error').map((p) => p.code)).toEqual(['provider-error', 'truncated']);
  });
});

describe('openai-responses decoder', () => {
  it('maps deltas that carry only output_index, and a done-only call', () => {
    const { message, parts } = run('openai-responses', [
      { type: 'response.created', response: { id: 'resp_1' } },
      {
        type: 'response.output_item.added',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '' },
      },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"a":' },
      { type: 'response.function_call_arguments.delta', output_index: 0, delta: '1}' },
      {
        type: 'response.output_item.done',
        output_index: 0,
        item: { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'f', arguments: '{"a":1}' },
      },
      {
        type: 'response.output_item.done',
        output_index: 1,
        item: { type: 'function_call', id: 'fc_2', call_id: 'call_2', name: 'g', arguments: '{"b":2}' },
      },
      {
        type: 'response.completed',
        response: { id: 'resp_1', status: 'completed', usage: { input_tokens: 1, output_tokens: 2, total_tokens: 3 } },
      },
    ]);
    expect(message.toolCalls).toEqual([
      { id: 'call_1', name: 'f', args: { a: 1 } },
      { id: 'call_2', name: 'g', args: { b: 2 } },
    ]);
    expect(message.stopReason).toBe('tool-calls');
    expect(partsOfType(parts, 'tool-input-delta').map((p) => p.delta)).toEqual(['{"a":', '1}', '{"b":2}']);
  });

  it('reports a failed response', () => {
    const { parts, message } = run('openai-responses', [
      { type: 'response.failed', response: { status: 'failed', error: { message: 'server error' } } },
    ]);
    expect(parts[0]).toMatchObject({ type: 'error', code: 'provider-error' });
    expect(message.stopReason).toBe('other');
  });
});

describe('gemini decoder', () => {
  const fc = (functionCall: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
    candidates: [{ content: { role: 'model', parts: [{ functionCall }] }, ...extra }],
  });
  it('builds arguments from partialArgs of every value type', () => {
    const { message, parts } = run('gemini', [
      fc({ name: 'f', willContinue: true }),
      fc({ partialArgs: [{ jsonPath: '$.n', numberValue: 3 }], willContinue: true }),
      fc({ partialArgs: [{ jsonPath: '$.flags[0]', boolValue: true }], willContinue: true }),
      fc({ partialArgs: [{ jsonPath: "$['odd key'].x", nullValue: null }], willContinue: true }),
      fc({ partialArgs: [{ jsonPath: '$.s', stringValue: 'ab', willContinue: true }], willContinue: true }),
      fc({ partialArgs: [{ jsonPath: '$.s', stringValue: 'cd' }], willContinue: true }),
      fc({ partialArgs: [{ jsonPath: '$.__proto__.polluted', stringValue: 'x' }], willContinue: true }),
      fc({ partialArgs: [{ jsonPath: 'nonsense', stringValue: 'x' }], willContinue: true }),
      fc({}, { finishReason: 'STOP' }),
    ]);
    expect(message.toolCalls).toHaveLength(1);
    const args = message.toolCalls[0]?.args as Record<string, unknown>;
    expect(JSON.stringify(args)).toBe(
      '{"n":3,"flags":[true],"odd key":{"x":null},"s":"abcd","__proto__":{"polluted":"x"}}',
    );
    expect(({} as { polluted?: string }).polluted).toBeUndefined();
    expect(partsOfType(parts, 'error').map((p) => p.message)).toEqual(['Unreadable jsonPath "nonsense" skipped.']);
  });

  it('maps MAX_TOKENS and SAFETY', () => {
    const text = (reason: string) =>
      run('gemini', [{ candidates: [{ content: { parts: [{ text: 'x' }] }, finishReason: reason }] }]).message
        .stopReason;
    expect(text('MAX_TOKENS')).toBe('length');
    expect(text('SAFETY')).toBe('content-filter');
    expect(text('STOP')).toBe('end');
  });
});

describe('ollama decoder', () => {
  it('never merges calls that reuse index 0', () => {
    const { message, types } = run('ollama', [
      { model: 'qwen', message: { role: 'assistant', content: '', thinking: 'ok' }, done: false },
      {
        message: { content: '', tool_calls: [{ function: { index: 0, name: 'w', arguments: { c: 'A' } } }] },
        done: false,
      },
      {
        message: { content: '', tool_calls: [{ function: { index: 0, name: 'w', arguments: { c: 'B' } } }] },
        done: false,
      },
      { message: { content: '' }, done: true, done_reason: 'stop', prompt_eval_count: 5, eval_count: 6 },
    ]);
    expect(types).toEqual([
      'reasoning-delta',
      'tool-input-start',
      'tool-input-delta',
      'tool-call',
      'tool-input-start',
      'tool-input-delta',
      'tool-call',
      'finish',
    ]);
    expect(message.toolCalls).toEqual([
      { id: 'call_0', name: 'w', args: { c: 'A' } },
      { id: 'call_1', name: 'w', args: { c: 'B' } },
    ]);
    expect(message.stopReason).toBe('tool-calls');
    expect(message.usage).toEqual({ inputTokens: 5, outputTokens: 6, totalTokens: 11 });
  });
});

describe('createStreamDecoder', () => {
  it('refuses an unknown format with the list of known ones', () => {
    expect(() => createStreamDecoder('toString' as StreamFormat)).toThrow(
      /Unknown stream format "toString". Known formats: openai-chat/,
    );
  });

  it('ignores events after the end, saying so', () => {
    const decoder = createStreamDecoder('ollama');
    decoder.flush();
    expect(decoder.push({ done: true })).toMatchObject([{ type: 'error', code: 'malformed-event' }]);
  });
});
