/**
 * Structured output in each provider's own request field. The clients put these in the body
 * when a request carries `output`; the schema is sent as the app wrote it, except where a
 * provider refuses keywords (Anthropic: see `toAnthropicSchema`).
 */
import { isPlainObject } from '../json/json-value';
import { type JSONSchema, strictModeProblems } from './tool-spec';
import type { Obj } from './wire';

/** Structured output as a model request carries it: the JSON Schema the answer must fit. */
export interface OutputFormat {
  /** The schema's name (OpenAI asks for one): 1 to 64 of a-z, A-Z, 0-9, _ or -. */
  name: string;
  /** JSON Schema of the answer: an object at the top. */
  schema: JSONSchema;
  description?: string;
}

/**
 * OpenAI Chat Completions' `response_format`. Strict (the answer guaranteed to fit) when the
 * schema meets strict mode's rules (`strictModeProblems`); otherwise the model is only guided.
 *
 * @example body.response_format = toOpenAIResponseFormat({ name: 'person', schema })
 */
export function toOpenAIResponseFormat(format: OutputFormat): Obj {
  return { type: 'json_schema', json_schema: openAIFormat(format) };
}

/**
 * The Responses API's `text.format`: the same fields as Chat's, one level up.
 *
 * @example body.text = { format: toOpenAIResponsesFormat({ name: 'person', schema }) }
 */
export function toOpenAIResponsesFormat(format: OutputFormat): Obj {
  return { type: 'json_schema', ...openAIFormat(format) };
}

function openAIFormat({ name, schema, description }: OutputFormat): Obj {
  const out: Obj = { name, schema, strict: strictModeProblems(schema).length === 0 };
  if (description) out.description = description;
  return out;
}

/**
 * Anthropic's `output_config.format`, with the schema in the subset Anthropic takes.
 *
 * @example body.output_config = { format: toAnthropicOutputFormat({ name: 'person', schema }) }
 */
export function toAnthropicOutputFormat(format: OutputFormat): Obj {
  return { type: 'json_schema', schema: toAnthropicSchema(format.schema) };
}

/**
 * Gemini's `generationConfig` fields: a JSON answer (`responseMimeType`) fitting
 * `responseJsonSchema` (full JSON Schema; keywords Gemini does not support are ignored there).
 *
 * @example Object.assign(body.generationConfig, toGeminiOutputConfig({ name: 'person', schema }))
 */
export function toGeminiOutputConfig(format: OutputFormat): Obj {
  return { responseMimeType: 'application/json', responseJsonSchema: format.schema };
}

/** What Anthropic's structured output accepts of a schema, beyond the structure itself. */
const ANTHROPIC_FORMATS = new Set([
  'date-time',
  'time',
  'date',
  'duration',
  'email',
  'hostname',
  'uri',
  'ipv4',
  'ipv6',
  'uuid',
]);
/** Keywords whose value is a schema, a list of them, or a map of them. */
const LIST = ['anyOf', 'allOf'] as const;
const MAP = ['properties', '$defs', 'definitions'] as const;
/** Kept as they are. */
const KEPT = new Set(['type', 'required', 'enum', 'const', '$ref', 'title', 'description', 'default']);

/**
 * A schema Anthropic's structured output accepts: every object closed (`additionalProperties:
 * false`, which it requires), `oneOf` read as `anyOf`, and what it refuses (numbers'
 * `minimum`…, strings' `minLength`, `pattern`…, most array bounds, `not`, unknown formats) moved into
 * the description, where the model still reads them. The answer is checked against the
 * original schema all the same.
 *
 * @example toAnthropicSchema({ type: 'integer', minimum: 0 }) // { type: 'integer', description: '{minimum: 0}' }
 */
export function toAnthropicSchema(schema: unknown): JSONSchema {
  if (!isPlainObject(schema)) return schema as JSONSchema;
  const out: JSONSchema = {};
  const moved: string[] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === '$schema' || key === 'additionalProperties') continue;
    if (KEPT.has(key)) out[key] = value;
    else if (key === 'items') out[key] = toAnthropicSchema(value);
    else if ((LIST as readonly string[]).includes(key) || key === 'oneOf')
      out[key === 'oneOf' ? 'anyOf' : key] = Array.isArray(value) ? value.map(toAnthropicSchema) : value;
    else if ((MAP as readonly string[]).includes(key) && isPlainObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([k, v]) => [k, toAnthropicSchema(v)]));
    else if (key === 'format' && typeof value === 'string' && ANTHROPIC_FORMATS.has(value)) out[key] = value;
    else if (key === 'minItems' && (value === 0 || value === 1)) out[key] = value;
    else moved.push(`${key}: ${JSON.stringify(value)}`);
  }
  if (schema.type === 'object' || isPlainObject(schema.properties)) out.additionalProperties = false;
  if (moved.length > 0) {
    const said = typeof out.description === 'string' && out.description ? `${out.description}\n\n` : '';
    out.description = `${said}{${moved.join(', ')}}`;
  }
  return out;
}
