// Structured output on the wire: each client puts the schema in its provider's own field, the
// wire-protocol server accepts it as the provider would (and refuses a malformed one with the
// provider's own 400), and the JSON answer streams back as text.
import { describe, expect, inject, it } from 'vitest';
import { addScenario, requestsOf } from '../../test/model-server/scenarios';
import { ModelHTTPError } from '../errors/model-http-error';
import { userMessage } from '../messages/constructors';
import type { OutputFormat } from '../providers/output-format';
import { anthropic } from './anthropic';
import { gemini } from './gemini';
import { ollama } from './ollama';
import { openAICompatible } from './openai-compatible';
import type { ChatModel, ModelRequest } from './types';

const url = inject('modelServerUrl');

const clients: Record<string, (model: string) => ChatModel> = {
  'openai-chat': (model) => openAICompatible({ baseURL: `${url}/v1`, model, maxRetries: 0 }),
  'openai-responses': (model) => openAICompatible({ baseURL: `${url}/v1`, model, api: 'responses', maxRetries: 0 }),
  anthropic: (model) => anthropic({ baseURL: url, model, maxRetries: 0 }),
  gemini: (model) => gemini({ baseURL: `${url}/v1beta`, model, maxRetries: 0 }),
  ollama: (model) => ollama({ baseURL: url, model, maxRetries: 0 }),
};

const person: OutputFormat = {
  name: 'person',
  description: 'Who wrote it.',
  schema: {
    type: 'object',
    properties: { name: { type: 'string' }, born: { type: 'integer', minimum: 0 } },
    required: ['name', 'born'],
    additionalProperties: false,
  },
};
const answer = { name: 'Ada Lovelace', born: 1815 };

/** Where each provider's request carries the schema. */
const fieldOf: Record<string, (body: Record<string, unknown>) => unknown> = {
  'openai-chat': (body) => body.response_format,
  'openai-responses': (body) => body.text,
  anthropic: (body) => body.output_config,
  gemini: (body) => body.generationConfig,
  ollama: (body) => body.format,
};
const expected: Record<string, unknown> = {
  'openai-chat': {
    type: 'json_schema',
    json_schema: { name: 'person', description: 'Who wrote it.', schema: person.schema, strict: true },
  },
  'openai-responses': {
    format: { type: 'json_schema', name: 'person', description: 'Who wrote it.', schema: person.schema, strict: true },
  },
  anthropic: {
    format: {
      type: 'json_schema',
      schema: {
        type: 'object',
        properties: { name: { type: 'string' }, born: { type: 'integer', description: '{minimum: 0}' } },
        required: ['name', 'born'],
        additionalProperties: false,
      },
    },
  },
  gemini: { responseMimeType: 'application/json', responseJsonSchema: person.schema },
  ollama: person.schema,
};

async function drain(model: ChatModel, request: ModelRequest) {
  const stream = model.stream(request);
  let text = '';
  for await (const part of stream) if (part.type === 'text-delta') text += part.delta;
  return { text, message: stream.message() };
}

describe.each(Object.keys(clients))('%s: structured output', (name) => {
  const make = clients[name] as (typeof clients)[string];

  it("sends the schema in the provider's field, which the server accepts; the JSON streams back", async () => {
    const id = await addScenario(url, { turns: [{ text: JSON.stringify(answer) }] }, `output-${name}`);
    const { text, message } = await drain(make(id), { messages: [userMessage('Who?')], output: person });
    expect(JSON.parse(text)).toEqual(answer);
    expect(message.content).toBe(text);
    const [request] = await requestsOf(url, id);
    expect(request?.answer).toBe('stream');
    expect(fieldOf[name]?.(request?.body ?? {})).toEqual(expected[name]);
  });

  it("a malformed schema is refused with the provider's 400", async () => {
    const id = await addScenario(url, { turns: [{ text: '{}' }] }, `output-${name}`);
    const malformed: OutputFormat = {
      name: 'person',
      schema: {
        type: 'object',
        properties: { born: { type: 'int' } },
        required: ['born'],
        additionalProperties: false,
      },
    };
    const error = await drain(make(id), { messages: [userMessage('Who?')], output: malformed }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ModelHTTPError);
    expect(error).toMatchObject({ status: 400, retryable: false });
    expect((error as ModelHTTPError).message).toMatch(/"int"/);
    const body = JSON.parse((error as ModelHTTPError).body);
    if (name === 'ollama') expect(body).toEqual({ error: expect.stringMatching(/format/) });
    else if (name === 'anthropic')
      expect(body).toMatchObject({ type: 'error', error: { type: 'invalid_request_error' } });
    else if (name === 'gemini') expect(body).toMatchObject({ error: { code: 400, status: 'INVALID_ARGUMENT' } });
    else expect(body).toMatchObject({ error: { type: 'invalid_request_error' } });
  });
});

it('a request whose output is not { name, schema } is a TypeError before anything is sent', () => {
  const model = openAICompatible({ baseURL: `${url}/v1`, model: 'never-asked' });
  expect(() => model.stream({ messages: [userMessage('x')], output: { name: 'p' } as never })).toThrow(
    /Expected `output` to be \{ name, schema \}, got `\{"name":"p"\}` \(object\)/,
  );
});

describe('what each provider refuses of a structured-output request', () => {
  const refused = async (name: string, extra: Record<string, unknown>) => {
    const id = await addScenario(url, { turns: [{ text: '{}' }] }, `output-refused-${name}`);
    const model = (clients[name] as (typeof clients)[string])(id);
    const error = await drain(model, { messages: [userMessage('x')], providerOptions: extra }).catch((e) => e);
    return (error as ModelHTTPError).message;
  };
  const open = { type: 'object', properties: { a: { type: 'string' } }, required: [] };

  it("OpenAI: strict mode's rules, the name's pattern, an object at the top", async () => {
    expect(
      await refused('openai-chat', {
        response_format: { type: 'json_schema', json_schema: { name: 'p', schema: open, strict: true } },
      }),
    ).toMatch(/In context=\(\), 'additionalProperties' is required to be supplied and to be false/);
    expect(
      await refused('openai-responses', {
        text: { format: { type: 'json_schema', name: 'a person', schema: open } },
      }),
    ).toMatch(/Invalid 'text\.format\.name': string does not match pattern/);
    expect(
      await refused('openai-chat', {
        response_format: { type: 'json_schema', json_schema: { name: 'p', schema: { type: 'array' } } },
      }),
    ).toMatch(/schema must be a JSON Schema of 'type: "object"'/);
  });

  it('Anthropic: open objects and the bounds it does not take', async () => {
    expect(await refused('anthropic', { output_config: { format: { type: 'json_schema', schema: open } } })).toMatch(
      /'additionalProperties' must be explicitly set to false/,
    );
    const bounded = { ...open, additionalProperties: false, properties: { a: { type: 'integer', minimum: 0 } } };
    expect(await refused('anthropic', { output_config: { format: { type: 'json_schema', schema: bounded } } })).toMatch(
      /Property 'minimum' is not supported at 'properties\.a'/,
    );
  });

  it('Gemini: a response schema wants the JSON MIME type', async () => {
    expect(await refused('gemini', { generationConfig: { responseJsonSchema: open } })).toMatch(
      /response_mime_type 'application\/json'/,
    );
  });
});
