import { describe, expect, it } from 'vitest';
import { sizeOf } from './size-of';

describe('sizeOf with { json: true }', () => {
  it('measures JSON data as without it, and counts anything else as just past the limit', () => {
    const data = { a: [1, 'two', { three: null }], b: 'x'.repeat(100) };
    expect(sizeOf(data, 10_000, { json: true })).toBe(sizeOf(data, 10_000));
    for (const other of [new Map([['k', 1]]), new Uint8Array(4), { n: 10n }, [new Date(0)]])
      expect(sizeOf(other, 1_000, { json: true })).toBe(1_001);
  });
});
