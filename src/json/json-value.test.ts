import { describe, expect, it } from 'vitest';
import { findNonJSON, MAX_JSON_DEPTH } from './json-value';

const nested = (levels: number): unknown => {
  let value: unknown = 'bottom';
  for (let i = 0; i < levels; i++) value = i % 2 ? { next: value } : [value];
  return value;
};

describe('findNonJSON', () => {
  it('names the first place that is not JSON data', () => {
    expect(findNonJSON({ a: [1, 'x', null, { b: true }] })).toBeUndefined();
    expect(findNonJSON({ a: [1, () => 2] })).toEqual({ path: ['a', 1], reason: 'a function' });
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(findNonJSON(cycle)).toEqual({ path: ['self'], reason: 'a circular reference' });
  });

  it(`accepts ${MAX_JSON_DEPTH} levels of nesting and refuses more, without overflowing the stack`, () => {
    expect(findNonJSON(nested(MAX_JSON_DEPTH))).toBeUndefined();
    const tooDeep = { path: [], reason: `nested deeper than ${MAX_JSON_DEPTH} levels` };
    expect(findNonJSON(nested(MAX_JSON_DEPTH + 1))).toEqual(tooDeep);
    expect(findNonJSON(nested(1_000_000))).toEqual(tooDeep);
  });
});
