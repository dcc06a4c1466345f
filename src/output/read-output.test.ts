import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPrefixOf } from '../../test/prefix';
import { OutputValidationError } from '../errors/output-validation-error';
import { reviveError, serializeError } from '../errors/serialize-error';
import { resolveOutput } from './output-schema';
import { PartialOutput, readOutput } from './read-output';

describe('PartialOutput', () => {
  it('gives the object so far, once per new text, and nothing before the object starts', () => {
    const partial = new PartialOutput();
    partial.push('  ');
    expect(partial.take()).toBeUndefined();
    partial.push('{"name": "Ad');
    expect(partial.take()).toEqual({ name: 'Ad' });
    expect(partial.take()).toBeUndefined();
    partial.push('a", "born": 18');
    const live = partial.take();
    expect(live).toEqual({ name: 'Ada', born: 18 });
    partial.push('15}');
    expect(partial.take()).toBe(live);
    expect(live).toEqual({ name: 'Ada', born: 1815 });
  });

  it('stops at text that is not a JSON object', () => {
    const prose = new PartialOutput();
    prose.push('Sure! Here it is: {"a": 1}');
    expect(prose.take()).toBeUndefined();
    const list = new PartialOutput();
    list.push('[1, 2');
    expect(list.take()).toBeUndefined();
  });

  it('any split of an answer streams partials that are each a prefix of the final object', () => {
    const answer = fc.record({
      name: fc.string(),
      born: fc.integer({ min: 0 }),
      tags: fc.array(fc.string({ maxLength: 6 }), { maxLength: 4 }),
      nested: fc.record({ ok: fc.boolean(), note: fc.option(fc.string()) }),
    });
    fc.assert(
      fc.property(answer, fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1 }), (value, sizes) => {
        const text = JSON.stringify(value, null, 1);
        const partial = new PartialOutput();
        const seen: unknown[] = [];
        for (let at = 0, i = 0; at < text.length; i++) {
          const size = sizes[i % sizes.length] as number;
          partial.push(text.slice(at, at + size));
          at += size;
          const object = partial.take();
          if (object) seen.push(structuredClone(object));
        }
        expect(seen.length).toBeGreaterThan(0);
        for (const [i, p] of seen.entries()) {
          expect(isPrefixOf(p, value)).toBe(true);
          if (i > 0) expect(isPrefixOf(seen[i - 1], p)).toBe(true);
        }
        expect(seen.at(-1)).toEqual(value);
      }),
      { numRuns: 300 },
    );
  });
});

describe('readOutput', () => {
  const schema = {
    type: 'object',
    properties: { name: { type: 'string' }, born: { type: 'integer' } },
    required: ['name', 'born'],
  };

  it('returns the checked object', async () => {
    expect(await readOutput('{"name": "Ada", "born": 1815}', await resolveOutput(schema))).toEqual({
      name: 'Ada',
      born: 1815,
    });
  });

  it.each([
    ['', 'expected a JSON object, got an empty answer', 'end'],
    [
      'Ada Lovelace',
      'expected a JSON object, got text that is not JSON: Unexpected character "A" at position 0',
      'end',
    ],
    [
      '{"name": "Ada", "bo',
      'expected a JSON object, got text that is not JSON: the JSON breaks off before its end (the answer stopped: length)',
      'length',
    ],
  ])('an answer that is not JSON (%j) is an OutputValidationError that says so', async (text, message, stop) => {
    const error = await readOutput(text, await resolveOutput(schema), stop).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error).toMatchObject({ text, issues: [{ path: [], code: 'invalid_json' }] });
    expect((error as OutputValidationError).issues[0]?.message).toMatch(
      new RegExp(`^${message.replace(/[()]/g, '\\$&')}`),
    );
  });

  it('JSON that does not fit is an OutputValidationError with the issues and the text', async () => {
    const text = '{"name": "Ada", "born": "1815"}';
    const error = (await readOutput(text, await resolveOutput(schema)).catch(
      (e: unknown) => e,
    )) as OutputValidationError;
    expect(error).toBeInstanceOf(OutputValidationError);
    expect(error.issues).toEqual([{ path: ['born'], message: 'expected integer, got string', code: 'invalid_type' }]);
    expect(error.text).toBe(text);
    expect(error.message).toBe(
      `The model's answer does not match the output schema: born: expected integer, got string (answer: '${text}')`,
    );
    const revived = reviveError(structuredClone(serializeError(error)));
    expect(revived).toBeInstanceOf(OutputValidationError);
    expect(revived).toMatchObject({
      name: 'OutputValidationError',
      issues: error.issues,
      text,
      message: error.message,
    });
  });
});
