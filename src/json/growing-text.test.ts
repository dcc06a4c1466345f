import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GrowingText } from './growing-text';

describe('GrowingText', () => {
  it('is the pieces joined, across many blocks, with their length', () => {
    const text = new GrowingText();
    const pieces: string[] = [];
    for (let i = 0; i < 20_000; i++) pieces.push(`piece ${i}; `.repeat(1 + (i % 5)));
    pieces.forEach((piece, i) => {
      text.append(piece);
      if (i === 5) expect(text.value).toBe(pieces.slice(0, 6).join(''));
    });
    const whole = pieces.join('');
    expect(text.length).toBe(whole.length);
    expect(text.value).toBe(whole);
  });

  it('joins any pieces to the same text, whatever their sizes', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary', maxLength: 3000 }), { maxLength: 40 }), (pieces) => {
        const text = new GrowingText();
        for (const piece of pieces) text.append(piece);
        expect(text.value).toBe(pieces.join(''));
        expect(text.length).toBe(pieces.join('').length);
      }),
      { numRuns: 50 },
    );
  });

  it('starts again from a text', () => {
    const text = new GrowingText();
    text.append('x'.repeat(5000));
    text.reset('abc');
    text.append('d');
    expect(text.value).toBe('abcd');
    text.reset();
    expect([text.value, text.length]).toEqual(['', 0]);
  });
});
