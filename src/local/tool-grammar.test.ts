import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type ChatDelta, GrammarAnswerReader, grammarSchema } from './tool-grammar';

const add = {
  name: 'add',
  description: 'Add.',
  inputSchema: { type: 'object', properties: { a: { type: 'integer' } } },
};
const echo = { name: 'echo', description: 'Echo.', inputSchema: { type: 'object' } };

/** What the reader says of `text` pushed in the pieces `cuts` make. */
function read(text: string, cuts: number[]): { deltas: ChatDelta[]; isCall: boolean } {
  const reader = new GrammarAnswerReader('call-1');
  const deltas: ChatDelta[] = [];
  let at = 0;
  for (const cut of [...cuts.filter((c) => c > 0 && c < text.length)].sort((a, b) => a - b)) {
    deltas.push(...reader.push(text.slice(at, cut)));
    at = cut;
  }
  deltas.push(...reader.push(text.slice(at)), ...reader.finish());
  return { deltas, isCall: reader.isCall };
}

const argsOf = (deltas: ChatDelta[]) =>
  deltas
    .flatMap((d) => (d.tool_calls as { function: { arguments?: string } }[] | undefined) ?? [])
    .map((c) => c.function.arguments ?? '')
    .join('');
const textOf = (deltas: ChatDelta[]) => deltas.map((d) => (typeof d.content === 'string' ? d.content : '')).join('');

describe('GrammarAnswerReader', () => {
  it('streams a call: its name first, then exactly its arguments, however the text is cut', () => {
    const text = '{ "name": "add", "arguments": {"a": 1, "b": {"c": [2, "}"]}} }\n';
    fc.assert(
      fc.property(fc.array(fc.nat({ max: text.length })), (cuts) => {
        const { deltas, isCall } = read(text, cuts);
        expect(isCall).toBe(true);
        expect(deltas[0]).toEqual({
          tool_calls: [{ index: 0, id: 'call-1', type: 'function', function: { name: 'add', arguments: '' } }],
        });
        expect(JSON.parse(argsOf(deltas))).toEqual({ a: 1, b: { c: [2, '}'] } });
      }),
    );
  });

  it('streams a reply as text, unescaped, however the text is cut', () => {
    const text = '{"answer": "Line one\\nsaid \\"hi\\" \\u00e9t\\u00e9 \\\\ done"}';
    fc.assert(
      fc.property(fc.array(fc.nat({ max: text.length })), (cuts) => {
        const { deltas, isCall } = read(text, cuts);
        expect(isCall).toBe(false);
        expect(textOf(deltas)).toBe('Line one\nsaid "hi" été \\ done');
      }),
    );
  });

  it('keeps text that is not the grammar’s shape, whole', () => {
    expect(textOf(read('plain words', [3]).deltas)).toBe('plain words');
  });
});

describe('grammarSchema', () => {
  it('offers every call and a reply under auto, only calls when one is required, one tool when named', () => {
    expect(grammarSchema([add, echo], 'auto').anyOf).toHaveLength(3);
    expect(grammarSchema([add, echo], 'required').anyOf).toHaveLength(2);
    expect(grammarSchema([add, echo], { name: 'echo' })).toMatchObject({
      properties: { name: { const: 'echo' }, arguments: { type: 'object' } },
      required: ['name', 'arguments'],
    });
  });
});
