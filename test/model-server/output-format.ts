/**
 * Each provider's structured-output request field, checked as its API does (what a client can
 * get wrong): OpenAI's `response_format` (Chat) and `text.format` (Responses) with strict mode's
 * rules, Anthropic's `output_config.format` and the schema subset it takes, Gemini's
 * `responseJsonSchema` with its MIME type, Ollama's `format`. Written apart from Moat's own
 * schema code: the server judges what the clients send, it does not share their rules.
 */
import { list, obj } from './wire-format';

type Obj = Record<string, unknown>;
const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const TYPES = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

/** Every schema inside `schema` (itself first), each with its context: the keys that lead to it. */
function* nodes(schema: unknown, context: string[] = []): Generator<[Obj, string[]]> {
  if (typeof schema !== 'object' || schema === null || Array.isArray(schema)) return;
  const node = schema as Obj;
  yield [node, context];
  for (const [key, child] of Object.entries(obj(node.properties))) yield* nodes(child, [...context, 'properties', key]);
  for (const key of ['$defs', 'definitions'])
    for (const [name, child] of Object.entries(obj(node[key]))) yield* nodes(child, [...context, key, name]);
  for (const key of ['items', 'additionalProperties', 'not'])
    if (typeof node[key] === 'object') yield* nodes(node[key], [...context, key]);
  for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'])
    for (const [i, child] of list(node[key]).entries()) yield* nodes(child, [...context, key, String(i)]);
}

/** The first `type` that names no JSON type, with where it is. */
function badType(schema: unknown): { type: unknown; context: string[] } | undefined {
  for (const [node, context] of nodes(schema)) {
    const types = Array.isArray(node.type) ? node.type : node.type === undefined ? [] : [node.type];
    for (const type of types) if (!TYPES.includes(type as string)) return { type, context };
  }
  return undefined;
}

const isObject = (value: unknown) => typeof value === 'object' && value !== null && !Array.isArray(value);
const openAIContext = (context: string[]) =>
  `(${context.map((c) => `'${c}'`).join(', ')}${context.length === 1 ? ',' : ''})`;

/** OpenAI's `json_schema` format, for Chat (`response_format.json_schema`) or Responses (`text.format`). */
function openAIJsonSchema(format: Obj, where: string): string | undefined {
  const name = format.name;
  if (typeof name !== 'string') return `Missing required parameter: '${where}.name'.`;
  if (!NAME.test(name))
    return `Invalid '${where}.name': string does not match pattern. Expected a string that matches the pattern '^[a-zA-Z0-9_-]+$'.`;
  if (!isObject(format.schema))
    return `Invalid type for '${where}.schema': expected an object, but got ${typeof format.schema} instead.`;
  const schema = format.schema as Obj;
  const invalid = (detail: string) => `Invalid schema for response_format '${name}': ${detail}`;
  if (schema.type !== 'object')
    return invalid(`schema must be a JSON Schema of 'type: "object"', got 'type: "${String(schema.type)}"'.`);
  const bad = badType(schema);
  if (bad)
    return invalid(
      `In context=${openAIContext(bad.context)}, ${JSON.stringify(bad.type)} is not valid under any of the given schemas.`,
    );
  if (format.strict !== true) return undefined;
  for (const [node, context] of nodes(schema)) {
    if (node.type !== 'object' && !isObject(node.properties)) continue;
    if (node.additionalProperties !== false)
      return invalid(
        `In context=${openAIContext(context)}, 'additionalProperties' is required to be supplied and to be false.`,
      );
    const required = new Set(list(node.required));
    const missing = Object.keys(obj(node.properties)).find((key) => !required.has(key));
    if (missing !== undefined)
      return invalid(
        `In context=${openAIContext(context)}, 'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`,
      );
  }
  return undefined;
}

/** Chat Completions' `response_format`. */
export function openAIChatFormat(body: Obj): string | undefined {
  if (body.response_format === undefined) return undefined;
  const format = obj(body.response_format);
  if (!['text', 'json_object', 'json_schema'].includes(format.type as string))
    return `Invalid value: '${String(format.type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`;
  if (format.type !== 'json_schema') return undefined;
  if (!isObject(format.json_schema)) return "Missing required parameter: 'response_format.json_schema'.";
  return openAIJsonSchema(format.json_schema as Obj, 'response_format.json_schema');
}

/** The Responses API's `text.format`. */
export function openAIResponsesFormat(body: Obj): string | undefined {
  const format = obj(body.text).format;
  if (format === undefined) return undefined;
  const f = obj(format);
  if (!['text', 'json_object', 'json_schema'].includes(f.type as string))
    return `Invalid value: '${String(f.type)}'. Supported values are: 'text', 'json_object', and 'json_schema'.`;
  return f.type === 'json_schema' ? openAIJsonSchema(f, 'text.format') : undefined;
}

/** Constraints Anthropic's structured output refuses (it takes minItems of 0 or 1 only). */
const ANTHROPIC_UNSUPPORTED = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'pattern',
  'maxItems',
  'uniqueItems',
  'oneOf',
  'not',
];

/** Anthropic's `output_config.format`. */
export function anthropicFormat(body: Obj): string | undefined {
  if (body.output_config === undefined) return undefined;
  const format = obj(body.output_config).format;
  if (format === undefined || format === null) return undefined;
  const f = obj(format);
  if (f.type !== 'json_schema') return "output_config.format.type: Input should be 'json_schema'";
  if (!isObject(f.schema)) return 'output_config.format.schema: Input should be a valid dictionary';
  const bad = badType(f.schema);
  if (bad) return `output_config.format.schema: Invalid type ${JSON.stringify(bad.type)} at '${bad.context.join('.')}'`;
  for (const [node, context] of nodes(f.schema)) {
    const at = context.length ? ` at '${context.join('.')}'` : '';
    if ((node.type === 'object' || isObject(node.properties)) && node.additionalProperties !== false)
      return `output_config.format.schema: For 'object' type, 'additionalProperties' must be explicitly set to false${at}`;
    const refused = ANTHROPIC_UNSUPPORTED.find((key) => key in node);
    if (refused) return `output_config.format.schema: Property '${refused}' is not supported${at}`;
    if (typeof node.minItems === 'number' && node.minItems > 1)
      return `output_config.format.schema: 'minItems' values other than 0 or 1 are not supported${at}`;
  }
  return undefined;
}

/** Gemini's `generationConfig.responseJsonSchema` (and `responseSchema`, its OpenAPI twin). */
export function geminiFormat(body: Obj): string | undefined {
  const config = obj(body.generationConfig);
  const json = config.responseJsonSchema;
  if (json === undefined && config.responseSchema === undefined) return undefined;
  if (json !== undefined && config.responseSchema !== undefined)
    return '* GenerateContentRequest.generation_config.response_schema: response_schema and response_json_schema cannot both be set.';
  if (config.responseMimeType !== 'application/json')
    return `* GenerateContentRequest.generation_config.response_mime_type: a response schema needs response_mime_type 'application/json', got '${String(config.responseMimeType ?? '')}'.`;
  if (json === undefined) return undefined;
  if (!isObject(json)) return '* GenerateContentRequest.generation_config.response_json_schema: must be a JSON object.';
  const bad = badType(json);
  if (bad)
    return `* GenerateContentRequest.generation_config.response_json_schema: invalid type ${JSON.stringify(bad.type)} at '${bad.context.join('.')}'.`;
  return undefined;
}

/** Ollama's `format`: "json" or a JSON Schema. */
export function ollamaFormat(body: Obj): string | undefined {
  const format = body.format;
  if (format === undefined || format === '' || format === 'json') return undefined;
  if (!isObject(format)) return `invalid format: ${JSON.stringify(format)}; expected "json" or a valid JSON schema`;
  const bad = badType(format);
  if (bad) return `invalid JSON schema in format: unknown type ${JSON.stringify(bad.type)}`;
  return undefined;
}
