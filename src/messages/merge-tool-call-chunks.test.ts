import { describe, expect, it } from 'vitest';
import { mergeToolCallChunks } from './merge-tool-call-chunks';

describe('mergeToolCallChunks', () => {
  it('takes a list of chunks', () => {
    expect(() => mergeToolCallChunks({ index: 0 } as never)).toThrow(/tool call chunks \(an array or iterable\)/);
  });

  it('merges fragments with the same index and parses the seed prefix best-effort', () => {
    const result = mergeToolCallChunks([
      { index: 0, id: 'call_1', name: 'add', args: '{"a": 3,' },
      { index: 0, name: '', args: ' "b": 1' },
    ]);
    expect(result.toolCalls).toEqual([{ id: 'call_1', name: 'add', args: { a: 3, b: 1 } }]);
    expect(result.invalidToolCalls).toEqual([]);
    expect(result.chunks).toEqual([{ index: 0, id: 'call_1', name: 'add', args: '{"a": 3, "b": 1' }]);
  });

  it('merges a long argument from many fragments, pairs and escapes cut between them, cut off or whole', () => {
    const content = 'A "quoted" line, a tab\tand 😀 in it.\n'.repeat(20_000);
    const text = JSON.stringify({ content });
    const fragments = [];
    for (let at = 0; at < text.length; at += 7) fragments.push({ index: 0, args: text.slice(at, at + 7) });
    const whole = mergeToolCallChunks([{ index: 0, id: 'w', name: 'write', args: '' }, ...fragments]);
    expect(whole.toolCalls).toEqual([{ id: 'w', name: 'write', args: { content } }]);
    // Cut inside the string, between the halves of a pair: the best-effort prefix of it, without the half.
    const end = text.indexOf('😀', 300_000) + 1;
    const cut = mergeToolCallChunks([
      { index: 0, id: 'w', name: 'write', args: '' },
      ...fragments.slice(0, Math.floor(end / 7)),
      { index: 0, args: text.slice(Math.floor(end / 7) * 7, end) },
    ]);
    const shown = String((cut.toolCalls[0]?.args as { content?: string } | undefined)?.content);
    expect(content.startsWith(shown) && shown.length > 250_000).toBe(true);
    expect(/[\uD800-\uDBFF]$/.test(shown)).toBe(false);
  });

  it('keeps different indexes apart and orders them by index whatever the arrival order', () => {
    const result = mergeToolCallChunks([
      { index: 1, id: 'b', name: 'second', args: '{"x":' },
      { index: 0, id: 'a', name: 'first', args: '{"y":' },
      { index: 1, args: ' 2}' },
      { index: 0, args: ' 1}' },
    ]);
    expect(result.toolCalls).toEqual([
      { id: 'a', name: 'first', args: { y: 1 } },
      { id: 'b', name: 'second', args: { x: 2 } },
    ]);
  });

  it('does not double an id or name that is resent on every chunk', () => {
    const result = mergeToolCallChunks([
      { index: 0, id: 'call_9', name: 'weather', args: '{"city"' },
      { index: 0, id: 'call_9', name: 'weather', args: ': "Paris"}' },
    ]);
    expect(result.toolCalls).toEqual([{ id: 'call_9', name: 'weather', args: { city: 'Paris' } }]);
  });

  it('joins a name streamed in pieces', () => {
    const result = mergeToolCallChunks([
      { index: 0, id: 'c', name: 'get_', args: '' },
      { index: 0, name: 'weather', args: '{}' },
    ]);
    expect(result.toolCalls[0]?.name).toBe('get_weather');
  });

  it('reads empty arguments as {}', () => {
    const result = mergeToolCallChunks([{ index: 0, id: 'c', name: 'now', args: '' }, { index: 0 }]);
    expect(result.toolCalls).toEqual([{ id: 'c', name: 'now', args: {} }]);
  });

  it('decodes an escape split across chunks', () => {
    const result = mergeToolCallChunks([
      { index: 0, id: 'c', name: 'say', args: '{"text": "say \\' },
      { index: 0, args: '"hi\\' },
      { index: 0, args: '" \\u00' },
      { index: 0, args: 'e9"}' },
    ]);
    expect(result.toolCalls[0]?.args).toEqual({ text: 'say "hi" é' });
  });

  it('joins a character split between chunks (a surrogate pair)', () => {
    const emoji = '😀';
    const result = mergeToolCallChunks([
      { index: 0, id: 'c', name: 'say', args: `{"text": "${emoji[0]}` },
      { index: 0, args: `${emoji[1]}"}` },
    ]);
    expect(result.toolCalls[0]?.args).toEqual({ text: emoji });
  });

  it('keeps __proto__ in arguments as plain data', () => {
    const result = mergeToolCallChunks([
      {
        index: 0,
        id: 'c',
        name: 'x',
        args: '{"__proto__": {"isAdmin": true}, "constructor": {"prototype": {"isAdmin": true}}}',
      },
    ]);
    const args = result.toolCalls[0]?.args as Record<string, unknown>;
    expect(Object.getPrototypeOf(args)).toBe(Object.prototype);
    expect(({} as { isAdmin?: boolean }).isAdmin).toBeUndefined();
    expect(Object.hasOwn(args, '__proto__')).toBe(true);
    expect(Object.getOwnPropertyDescriptor(args, '__proto__')?.value).toEqual({ isAdmin: true });
  });

  it('makes an InvalidToolCall of text that cannot be a JSON object, keeping the raw text', () => {
    const result = mergeToolCallChunks([
      { index: 0, id: 'bad', name: 'x', args: "{'single': 'quotes'}" },
      { index: 1, id: 'arr', name: 'y', args: '[1, 2]' },
      { index: 2, id: 'ok', name: 'z', args: '{}' },
    ]);
    expect(result.toolCalls).toEqual([{ id: 'ok', name: 'z', args: {} }]);
    expect(result.invalidToolCalls).toEqual([
      { id: 'bad', name: 'x', args: "{'single': 'quotes'}", error: expect.stringContaining('not valid JSON') },
      { id: 'arr', name: 'y', args: '[1, 2]', error: 'The arguments must be a JSON object, got an array.' },
    ]);
  });

  it('makes an InvalidToolCall of a call with no name, and synthesizes missing ids', () => {
    const result = mergeToolCallChunks([
      { index: 3, args: '{"a": 1}' },
      { args: '{}', name: 'loose' },
    ]);
    expect(result.invalidToolCalls).toEqual([
      { id: 'call_3', args: '{"a": 1}', error: 'The tool call has no tool name.' },
    ]);
    expect(result.toolCalls).toEqual([{ id: 'call_u0', name: 'loose', args: {} }]);
  });

  it('does not change the chunks it is given', () => {
    const chunks = [
      { index: 0, id: 'c', name: 'n', args: '{"a"' },
      { index: 0, args: ': 1}' },
    ];
    const before = structuredClone(chunks);
    mergeToolCallChunks(chunks);
    expect(chunks).toEqual(before);
  });
});
