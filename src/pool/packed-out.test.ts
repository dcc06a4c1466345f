import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PACK_MAX_CHARS, packOut, unpackOut } from './packed-out';
import { OUT_DELTA, OUT_ERROR, OUT_JSON, OUT_RESULT, OUT_STARTED, OUT_TEXT, type OutBatch } from './protocol';

const entry = fc.oneof(
  fc.tuple(fc.constantFrom(OUT_TEXT, OUT_JSON), fc.nat(), fc.string({ unit: 'binary' })),
  fc.tuple(fc.constant(OUT_STARTED), fc.nat(), fc.constant(0)),
);

describe('packOut / unpackOut', () => {
  it('reads back any batch of bare results exactly (any characters, ids and lengths)', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 20 }), (entries) => {
        const batch: OutBatch = entries.flat();
        const packed = packOut(batch);
        expect(typeof packed).toBe('string');
        expect(unpackOut(packed as string)).toEqual(batch);
      }),
    );
  });

  it('packs the usual reply, one JSON result and the started count, as a short string', () => {
    const packed = packOut([OUT_JSON, 17, '42', OUT_STARTED, 3, 0]);
    expect(packed).toBe('117:2:4253:0:');
    expect(unpackOut(packed as string)).toEqual([OUT_JSON, 17, '42', OUT_STARTED, 3, 0]);
  });

  it('payloads holding the separators, digits or a whole packed batch are read as text', () => {
    const tricky = ['1:2:', ':', '', '0:0:', packOut([OUT_TEXT, 1, 'x']) as string, '\u{1F600}\uD800'];
    const batch: OutBatch = tricky.flatMap((text, i) => [OUT_TEXT, i, text]);
    expect(unpackOut(packOut(batch) as string)).toEqual(batch);
  });

  it('leaves anything else as the array it is: deltas, errors, whole results, non-string content', () => {
    expect(packOut([OUT_TEXT, 1, 'ok', OUT_DELTA, 2, 'progress'])).toBeUndefined();
    expect(packOut([OUT_ERROR, 1, { name: 'ToolExecutionError', message: 'boom' }])).toBeUndefined();
    expect(packOut([OUT_RESULT, 1, { content: 'x', kind: 'text', artifact: 1 }])).toBeUndefined();
    expect(packOut([OUT_TEXT, 1, { not: 'a string' }])).toBeUndefined();
  });

  it('leaves a large batch as it is (its text costs more to copy again than the array saves)', () => {
    expect(packOut([OUT_TEXT, 1, 'x'.repeat(PACK_MAX_CHARS)])).toBeUndefined();
    expect(packOut([OUT_TEXT, 1, 'x'.repeat(PACK_MAX_CHARS - 100)])).toBeDefined();
  });

  it('an empty batch is the empty string', () => {
    expect(packOut([])).toBe('');
    expect(unpackOut('')).toEqual([]);
  });

  it('a string that is not a packed batch throws a TypeError, saying where', () => {
    for (const bad of [
      'forged',
      '1',
      '1:',
      '12:',
      '1x:2:ab',
      '11:5:abc', // shorter than it says
      '11:-1:',
      '91:1:a', // no such kind
      '21:1:a', // a whole result is never packed
      '53:1:a', // the started count has no payload
      '11:2:ab1', // a cut entry after a good one
      `1${'9'.repeat(16)}:1:a`, // an id past what a double holds exactly
    ])
      expect(() => unpackOut(bad), bad).toThrow(TypeError);
    expect(() => unpackOut('11:2:abX')).toThrow(/at character 7/);
  });
});
