import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { checkJSONSchema, jsonSchemaProblem } from './check-json-schema';

const person = {
  type: 'object',
  properties: {
    name: { type: 'string', minLength: 2 },
    born: { type: 'integer', minimum: 0 },
    tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
    nick: { anyOf: [{ type: 'string' }, { type: 'null' }] },
  },
  required: ['name', 'born'],
  additionalProperties: false,
};

const issues = (schema: Record<string, unknown>, value: unknown) =>
  checkJSONSchema(schema, value).map((i) => [i.path.join('.'), i.message]);

describe('checkJSONSchema', () => {
  it('accepts a value that fits', () => {
    expect(checkJSONSchema(person, { name: 'Ada', born: 1815, tags: ['math'], nick: null })).toEqual([]);
  });

  it('names each problem with its path', () => {
    expect(issues(person, { name: 'A', born: 18.5, tags: ['a', 'b', 3], extra: true })).toEqual([
      ['name', 'too short: expected at least 2 characters'],
      ['born', 'expected integer, got number'],
      ['tags', 'too long: expected at most 2 items'],
      ['tags.2', 'expected string, got number'],
      ['extra', 'unexpected key'],
    ]);
    expect(issues(person, {})).toEqual([
      ['name', 'missing (required)'],
      ['born', 'missing (required)'],
    ]);
    expect(issues(person, [])).toEqual([['', 'expected object, got array']]);
    expect(checkJSONSchema(person, { born: 1 })[0]).toMatchObject({ code: 'missing', path: ['name'] });
  });

  it('says what a nullable field should have been, not only that no option fits', () => {
    expect(issues(person, { name: 'Ada', born: 1, nick: 7 })).toEqual([['nick', 'fits none of the 2 allowed shapes']]);
    const nullableObject = { anyOf: [{ type: 'object', properties: { a: { type: 'number' } } }, { type: 'null' }] };
    expect(issues(nullableObject, { a: 'x' })).toEqual([['a', 'expected number, got string']]);
  });

  it('reads enum, const, oneOf, allOf and not', () => {
    expect(issues({ enum: ['a', 'b', { c: [1] }] }, { c: [1] })).toEqual([]);
    expect(issues({ enum: ['a', 'b'] }, 'c')).toEqual([['', 'expected one of "a" | "b"']]);
    expect(issues({ const: 3 }, 4)).toEqual([['', 'expected 3']]);
    const oneOf = { oneOf: [{ type: 'integer' }, { type: 'number', minimum: 0 }] };
    // Only the second option takes a fraction: its issue is the one that helps.
    expect(issues(oneOf, -1.5)).toEqual([['', 'too small: expected at least 0']]);
    expect(issues(oneOf, 'x')).toEqual([['', 'fits none of the 2 allowed shapes']]);
    expect(issues(oneOf, 2)).toEqual([['', 'fits 2 of the allowed shapes (exactly one must)']]);
    expect(issues(oneOf, 2.5)).toEqual([]);
    expect(issues({ allOf: [{ minimum: 1 }, { maximum: 3 }] }, 4)).toEqual([['', 'too big: expected at most 3']]);
    expect(issues({ not: { type: 'string' } }, 'x')).toEqual([['', 'matches a shape it must not']]);
  });

  it('reads the bounds of numbers, strings and arrays', () => {
    expect(issues({ exclusiveMinimum: 0, exclusiveMaximum: 1 }, 0)).toEqual([['', 'too small: expected more than 0']]);
    expect(issues({ exclusiveMaximum: 1 }, 1)).toEqual([['', 'too big: expected less than 1']]);
    expect(issues({ multipleOf: 0.1 }, 0.3)).toEqual([]);
    expect(issues({ multipleOf: 5 }, 12)).toEqual([['', 'expected a multiple of 5']]);
    expect(issues({ maxLength: 2 }, '😀😀')).toEqual([]);
    expect(issues({ pattern: '^[a-z]+$' }, 'abc1')).toEqual([['', 'does not match the pattern /^[a-z]+$/']]);
    expect(issues({ minItems: 1 }, [])).toEqual([['', 'too short: expected at least 1 items']]);
    expect(issues({ uniqueItems: true }, [{ a: 1 }, { a: 1 }])).toEqual([
      ['', 'item 1 repeats an earlier one (items must be unique)'],
    ]);
    expect(issues({ prefixItems: [{ type: 'string' }], items: { type: 'number' } }, ['a', 1, 'b'])).toEqual([
      ['2', 'expected number, got string'],
    ]);
  });

  it('follows local $refs, recursion included, and stops a $ref that loops', () => {
    const tree = {
      $ref: '#/$defs/node',
      $defs: {
        node: {
          type: 'object',
          properties: { label: { type: 'string' }, children: { type: 'array', items: { $ref: '#/$defs/node' } } },
          required: ['label'],
        },
      },
    };
    expect(issues(tree, { label: 'a', children: [{ label: 'b', children: [{ label: 3 }] }] })).toEqual([
      ['children.0.children.0.label', 'expected string, got number'],
    ]);
    const loop = { $ref: '#/$defs/a', $defs: { a: { $ref: '#/$defs/a' } } };
    expect(issues(loop, 1)).toEqual([['', 'the schema refers to itself without end ($ref)']]);
  });

  it('takes boolean schemas and additionalProperties as a schema', () => {
    expect(issues({ type: 'object', properties: { a: false } }, { a: 1 })).toEqual([['a', 'no value is allowed here']]);
    expect(issues({ type: 'object', additionalProperties: { type: 'number' } }, { x: 1, y: 'z' })).toEqual([
      ['y', 'expected number, got string'],
    ]);
  });

  it('keeps a __proto__ key a key', () => {
    const value = JSON.parse('{"__proto__": {"polluted": true}}');
    expect(issues({ type: 'object', additionalProperties: false }, value)).toEqual([['__proto__', 'unexpected key']]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  // zod and this checker read the same schema (zod's own JSON Schema of it) the same way. Values
  // are mostly valid, field by field, with values at and past each bound mixed in: a value with
  // one wrong field is where a checker's mistake shows.
  it('agrees with zod on the schemas zod writes', () => {
    const field = (valid: unknown[], invalid: unknown[]) =>
      fc.oneof(
        { weight: 4, arbitrary: fc.constantFrom(...valid) },
        { weight: 1, arbitrary: fc.constantFrom(...invalid) },
      );
    const cases = [
      {
        schema: z.strictObject({
          name: z.string().min(1).max(8),
          born: z.number().int().min(0),
          score: z.number().gt(0).lt(10).optional(),
          kind: z.enum(['a', 'b']),
          tags: z.array(z.string().regex(/^t\d$/)).max(3),
          nick: z.string().nullable(),
        }),
        value: fc.record(
          {
            name: field(['a', 'abcdefgh', 'é😀'], ['', 'abcdefghi', 3]),
            born: field([0, 1815], [-1, 1.5, '3', 2 ** 53]),
            score: field([0.001, 9.99, 5], [0, 10, -1, 'x']),
            kind: field(['a', 'b'], ['c', 1]),
            tags: fc.array(field(['t1', 't9'], ['t12', 'x', 3]), { maxLength: 4 }),
            nick: field(['n', null], [3, undefined]),
            other: fc.constant(1),
          },
          { requiredKeys: ['name', 'born', 'kind', 'tags'] },
        ),
      },
      {
        schema: z.strictObject({
          pick: z.union([z.literal('x'), z.number().multipleOf(3)]),
          list: z.tuple([z.string(), z.boolean()]),
        }),
        value: fc.record({
          pick: field(['x', 3, 9, -6], ['y', 4, 1.5, null]),
          list: field([['a', true]], [['a'], ['a', 1], ['a', true, 2], 'a']),
        }),
      },
    ];
    for (const { schema, value } of cases) {
      const json = z.toJSONSchema(schema, { io: 'output' }) as Record<string, unknown>;
      fc.assert(
        fc.property(value, (v) => {
          expect(checkJSONSchema(json, v).length === 0).toBe(schema.safeParse(v).success);
        }),
        { numRuns: 3000 },
      );
    }
  });
});

describe('jsonSchemaProblem', () => {
  it('finds what makes a schema unreadable, with its place', () => {
    expect(jsonSchemaProblem(person)).toBeUndefined();
    expect(jsonSchemaProblem({ type: 'object', properties: { a: { type: 'strin' } } })).toMatch(
      /^\$\.properties\.a\.type: "strin" is not a JSON Schema type/,
    );
    expect(jsonSchemaProblem({ required: 'a' })).toBe('$.required: must be a list of property names');
    expect(jsonSchemaProblem({ properties: [] })).toBe('$.properties: must be an object');
    expect(jsonSchemaProblem({ items: 3 })).toBe('$.items: a schema must be an object or a boolean');
    expect(jsonSchemaProblem({ anyOf: [] })).toBe('$.anyOf: must be a non-empty list of schemas');
    expect(jsonSchemaProblem({ minimum: '3' })).toBe('$.minimum: must be a number');
    expect(jsonSchemaProblem({ pattern: '(' })).toBe('$.pattern: "(" is not a regular expression');
    expect(jsonSchemaProblem({ $ref: '#/$defs/missing' })).toBe(
      '$.$ref: "#/$defs/missing" points nowhere in this schema',
    );
    expect(jsonSchemaProblem({ $ref: 'https://example.com/s.json' })).toMatch(/points nowhere/);
    expect(jsonSchemaProblem([])).toBe('$: a JSON Schema is an object');
  });
});
