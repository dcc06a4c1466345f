import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BROKEN, CLOSED, JsonStringReader, OPEN } from './string-reader';

/** Read the pieces of one string literal (without its opening quote) in turn. */
function read(pieces: string[]) {
  const reader = new JsonStringReader();
  reader.start();
  let stoppedAt = -1;
  for (const piece of pieces) {
    stoppedAt = reader.read(piece, 0);
    if (reader.state !== OPEN) break;
  }
  return { reader, stoppedAt };
}

describe('JsonStringReader', () => {
  it('stops just after the closing quote, and leaves the rest of the piece unread', () => {
    const { reader, stoppedAt } = read(['hello", "next']);
    expect(reader.state).toBe(CLOSED);
    expect(reader.text).toBe('hello');
    expect(stoppedAt).toBe(6);
  });

  it('keeps an escape cut between pieces, \\uXXXX digits included', () => {
    const { reader } = read(['a\\', 'nb\\u00', 'e9c"']);
    expect(reader.state).toBe(CLOSED);
    expect(reader.text).toBe('a\nb\u00e9c');
  });

  it('joins a surrogate pair written as two escapes in different pieces, and keeps a lone one', () => {
    expect(read(['\\uD83D', '\\uDE00"']).reader.text).toBe('😀');
    expect(read(['\\uD83Dx"']).reader.text).toBe('\uD83Dx');
  });

  it('holds back the high half of a raw surrogate pair that a piece ends with, until the next piece', () => {
    const reader = new JsonStringReader();
    reader.start();
    reader.read('ab\ud83d', 0);
    expect(reader.text).toBe('ab');
    reader.read('\ude00c', 0);
    expect(reader.text).toBe('ab😀c');
    // A lone high half goes in with whatever follows it: a character, an escape, the closing quote.
    expect(read(['\ud83d', 'x"']).reader.text).toBe('\ud83dx');
    expect(read(['\ud83d', '\\n"']).reader.text).toBe('\ud83d\n');
    expect(read(['\ud83d', '\\ude00"']).reader.text).toBe('😀');
    expect(read(['\ud83d', '"']).reader.text).toBe('\ud83d');
  });

  it('reports a bad escape and a raw control character with the position in the piece', () => {
    const bad = read(['ab\\q"']).reader;
    expect([bad.state, bad.brokenAt, bad.found]).toEqual([BROKEN, 3, 'q']);
    const control = read(['ab\ncd"']).reader;
    expect([control.state, control.brokenAt]).toEqual([BROKEN, 2]);
    expect(control.expected).toMatch(/control characters must be escaped/);
  });

  it('reads any string JSON.stringify writes, however it is cut, to the same text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.array(fc.nat()), (text, cuts) => {
        const literal = JSON.stringify(text).slice(1); // without the opening quote
        const at = [...new Set(cuts.map((c) => c % (literal.length + 1)))].sort((a, b) => a - b);
        const pieces = [0, ...at, literal.length]
          .slice(1)
          .map((end, k, ends) => literal.slice(k ? ends[k - 1] : 0, end));
        const { reader } = read(pieces);
        expect(reader.state).toBe(CLOSED);
        expect(reader.text).toBe(text);
      }),
    );
    // A hundred strings of any code units: about 1 s alone, over 10 s beside the browser suites.
  }, 60_000);
});
