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

describe('sizeOf', () => {
  it("is about the length of the value's JSON text", () => {
    for (const value of [
      '',
      'hello',
      42,
      true,
      null,
      [1, 'two', { three: 3 }],
      { a: { b: ['c', 'd'] }, e: 'f'.repeat(100) },
    ]) {
      const json = JSON.stringify(value).length;
      const size = sizeOf(value, Number.POSITIVE_INFINITY);
      expect(size).toBeGreaterThanOrEqual(json * 0.5);
      expect(size).toBeLessThanOrEqual(json * 2 + 8);
    }
  });

  it('counts what JSON cannot write: bytes, Blobs, Maps, Sets', () => {
    expect(sizeOf(new Uint8Array(1_000), Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(1_000);
    expect(sizeOf(new Blob(['x'.repeat(500)]), Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(500);
    expect(sizeOf(new Map([['k', 'v'.repeat(300)]]), Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(300);
    expect(sizeOf(new Set(['s'.repeat(300)]), Number.POSITIVE_INFINITY)).toBeGreaterThanOrEqual(300);
  });

  it('counts an object as often as it is reached: shared objects as JSON writes them, a cycle past any limit', () => {
    // 22 levels of { a: x, b: x }: a few hundred bytes to clone, about 500 MB of JSON.
    let shared: unknown = { s: 'x'.repeat(100) };
    for (let i = 0; i < 22; i++) shared = { a: shared, b: shared };
    expect(sizeOf(shared, 8 * 2 ** 20)).toBeGreaterThan(8 * 2 ** 20);
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect(sizeOf(cycle, 10_000)).toBeGreaterThan(10_000);
  });

  it('stops once past the limit: a list of ten million items is not walked', () => {
    const huge = new Array(10_000_000).fill(0);
    expect(sizeOf(huge, 1_000)).toBeGreaterThan(1_000);
    const wide = Object.fromEntries(Array.from({ length: 2_000 }, (_, i) => [`k${i}`, 'v'.repeat(10)]));
    expect(sizeOf(wide, 100)).toBeGreaterThan(100);
  });
});
