import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { resolveOutput, type StandardSchema } from './output-schema';

const Person = z.object({ name: z.string(), born: z.number().int() }).meta({ title: 'Person' });

describe('resolveOutput', () => {
  it("a zod schema: its own JSON Schema (Standard JSON Schema), zod's checks and output", async () => {
    const resolved = await resolveOutput(z.object({ name: z.string(), born: z.number().int().default(1815) }));
    expect(resolved.format).toEqual({
      name: 'output',
      schema: {
        type: 'object',
        properties: {
          name: { type: 'string' },
          born: { type: 'integer', default: 1815, minimum: -9007199254740991, maximum: 9007199254740991 },
        },
        required: ['name', 'born'],
        additionalProperties: false,
      },
    });
    expect(await resolved.validate({ name: 'Ada' })).toEqual({ value: { name: 'Ada', born: 1815 } });
    expect(await resolved.validate({ name: 1, born: 1.5 })).toEqual({
      issues: [
        { path: ['name'], message: 'Invalid input: expected string, received number', code: 'invalid_type' },
        { path: ['born'], message: 'Invalid input: expected int, received number', code: 'invalid_type' },
      ],
    });
  });

  it('names the schema after its title, when providers can take it as a name; the description goes along', async () => {
    expect((await resolveOutput(Person)).format.name).toBe('Person');
    const described = await resolveOutput({ type: 'object', title: 'A person', description: 'Who.' });
    expect(described.format).toMatchObject({ name: 'output', description: 'Who.' });
  });

  it('a zod/mini schema (no Standard JSON Schema): zod converts it, loaded only then', async () => {
    const resolved = await resolveOutput(zm.object({ city: zm.string() }));
    expect(resolved.format.schema).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
      additionalProperties: false,
    });
    expect(await resolved.validate({ city: 3 })).toMatchObject({ issues: [{ path: ['city'] }] });
  });

  it('a plain JSON Schema object: sent as it is (without $schema), checked by our checker', async () => {
    const schema = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      properties: { n: { type: 'integer' } },
      required: ['n'],
    };
    const resolved = await resolveOutput(schema);
    expect(resolved.format.schema).toEqual({ type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] });
    expect(await resolved.validate({ n: 2 })).toEqual({ value: { n: 2 } });
    expect(await resolved.validate({ n: 2.5 })).toEqual({
      issues: [{ path: ['n'], message: 'expected integer, got number', code: 'invalid_type' }],
    });
  });

  it('a Standard Schema from another library: its issues with their paths, async validate too', async () => {
    const schema: StandardSchema<{ ok: true }> = {
      '~standard': {
        version: 1,
        vendor: 'hand-made',
        validate: async (value) =>
          (value as { ok?: unknown })?.ok === true
            ? { value: { ok: true } }
            : { issues: [{ message: 'not ok', path: [{ key: 'ok' }, 0] }] },
        jsonSchema: { output: () => ({ type: 'object', properties: { ok: { const: true } } }) },
      },
    };
    const resolved = await resolveOutput(schema);
    expect(resolved.format.schema).toEqual({ type: 'object', properties: { ok: { const: true } } });
    expect(await resolved.validate({ ok: false })).toEqual({ issues: [{ path: ['ok', 0], message: 'not ok' }] });
  });

  it('is made once per schema object', async () => {
    expect(resolveOutput(Person)).toBe(resolveOutput(Person));
  });

  it('refuses, with a TypeError that says why, what cannot serve as output', async () => {
    expect(() => resolveOutput('person' as never)).toThrow(
      /Expected `output` to be a zod schema, another Standard Schema or a JSON Schema object, got `'person'` \(string\)/,
    );
    await expect(resolveOutput(z.array(z.string()))).rejects.toThrow(/must describe an object .* got type "array"/);
    await expect(resolveOutput({ type: 'object', properties: { a: { type: 'strin' } } })).rejects.toThrow(
      /not a sound JSON Schema: \$\.properties\.a\.type: "strin"/,
    );
    await expect(resolveOutput(z.object({ when: z.date() }))).rejects.toThrow(/cannot be written as JSON Schema/);
    const opaque = { '~standard': { version: 1, vendor: 'acme', validate: () => ({ value: 1 }) } } as const;
    await expect(resolveOutput(opaque)).rejects.toThrow(/\(vendor 'acme'\) gives no JSON Schema/);
  });
});
