import { describe, expect, it } from 'vitest';
import {
  toAnthropicOutputFormat,
  toAnthropicSchema,
  toGeminiOutputConfig,
  toOpenAIResponseFormat,
  toOpenAIResponsesFormat,
} from './output-format';

const strict = {
  type: 'object',
  properties: { name: { type: 'string' }, nick: { type: ['string', 'null'] } },
  required: ['name', 'nick'],
  additionalProperties: false,
};
const loose = { type: 'object', properties: { name: { type: 'string' } } };

describe('structured output in each provider field', () => {
  it("OpenAI: strict only when the schema meets strict mode's rules", () => {
    expect(toOpenAIResponseFormat({ name: 'person', schema: strict, description: 'Who.' })).toEqual({
      type: 'json_schema',
      json_schema: { name: 'person', schema: strict, strict: true, description: 'Who.' },
    });
    expect(toOpenAIResponseFormat({ name: 'person', schema: loose })).toEqual({
      type: 'json_schema',
      json_schema: { name: 'person', schema: loose, strict: false },
    });
    expect(toOpenAIResponsesFormat({ name: 'person', schema: strict })).toEqual({
      type: 'json_schema',
      name: 'person',
      schema: strict,
      strict: true,
    });
  });

  it('Gemini: a JSON answer under responseJsonSchema', () => {
    expect(toGeminiOutputConfig({ name: 'x', schema: loose })).toEqual({
      responseMimeType: 'application/json',
      responseJsonSchema: loose,
    });
  });

  it('Anthropic: objects closed, oneOf as anyOf, refused bounds moved into the description', () => {
    const schema = {
      type: 'object',
      description: 'A person.',
      properties: {
        born: { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 },
        email: { type: 'string', format: 'email', maxLength: 80 },
        code: { type: 'string', format: 'iso-3166', pattern: '^[A-Z]{2}$' },
        tags: {
          type: 'array',
          items: { type: 'object', properties: { t: { type: 'string' } } },
          minItems: 1,
          maxItems: 3,
        },
        pick: { oneOf: [{ const: 'a' }, { type: 'number', multipleOf: 2 }] },
      },
      required: ['born'],
      additionalProperties: true,
      $defs: { unused: { type: 'object', properties: {} } },
    };
    expect(toAnthropicOutputFormat({ name: 'p', schema })).toEqual({
      type: 'json_schema',
      schema: {
        type: 'object',
        description: 'A person.',
        properties: {
          born: { type: 'integer', description: '{minimum: -9007199254740991, maximum: 9007199254740991}' },
          email: { type: 'string', format: 'email', description: '{maxLength: 80}' },
          code: { type: 'string', description: '{format: "iso-3166", pattern: "^[A-Z]{2}$"}' },
          tags: {
            type: 'array',
            items: { type: 'object', properties: { t: { type: 'string' } }, additionalProperties: false },
            minItems: 1,
            description: '{maxItems: 3}',
          },
          pick: { anyOf: [{ const: 'a' }, { type: 'number', description: '{multipleOf: 2}' }] },
        },
        required: ['born'],
        additionalProperties: false,
        $defs: { unused: { type: 'object', properties: {}, additionalProperties: false } },
      },
    });
    expect(toAnthropicSchema({ type: 'string', description: 'Code.', minLength: 2 })).toEqual({
      type: 'string',
      description: 'Code.\n\n{minLength: 2}',
    });
  });
});
