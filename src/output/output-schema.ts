/**
 * What a run's `output` may be: a Standard Schema that can give JSON Schema (zod 4, or any
 * library implementing the Standard JSON Schema extension) or a plain JSON Schema object. Either
 * way it becomes the JSON Schema the provider is sent and a check of the final answer. No schema
 * library is imported here: a page that passes JSON Schema loads none.
 */
import type { ValidationIssue } from '../errors/message-validation-error';
import { describeValue } from '../errors/moat-error';
import { isPlainObject } from '../json/json-value';
import type { OutputFormat } from '../providers/output-format';
import type { JSONSchema } from '../providers/tool-spec';

/** One problem a Standard Schema reports. */
export interface StandardIssue {
  readonly message: string;
  readonly path?: ReadonlyArray<PropertyKey | { readonly key: PropertyKey }> | undefined;
}

/** What a Standard Schema's `validate` returns. */
export type StandardResult<Output> =
  | { readonly value: Output; readonly issues?: undefined }
  | { readonly issues: ReadonlyArray<StandardIssue> };

/**
 * A Standard Schema (standardschema.dev): zod 4, valibot, ArkType… Its `jsonSchema` converter
 * (the Standard JSON Schema extension, which zod 4 has) gives the schema sent to the provider.
 */
export interface StandardSchema<Output = unknown> {
  readonly '~standard': {
    readonly version: 1;
    readonly vendor: string;
    readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
    readonly types?: { readonly input: unknown; readonly output: Output } | undefined;
    readonly jsonSchema?:
      | { readonly output: (options: { readonly target: string }) => Record<string, unknown> }
      | undefined;
  };
}

/** A run's structured output: a Standard Schema (zod 4…) or a JSON Schema object. */
export type OutputSchema = StandardSchema | JSONSchema;

/**
 * The type a schema's output has: a Standard Schema's declared output type (or, where it declares
 * none, what its `validate` returns), `unknown` for JSON Schema.
 */
export type OutputOf<S> = S extends { readonly '~standard': infer P }
  ? 'types' extends keyof P
    ? NonNullable<P['types' & keyof P]> extends { readonly output: infer O }
      ? O
      : ValidatedOf<P>
    : ValidatedOf<P>
  : unknown;

type ValidatedOf<P> = P extends { readonly validate: (...args: never[]) => infer R }
  ? Extract<Awaited<R>, { readonly value: unknown }> extends { readonly value: infer O }
    ? O
    : unknown
  : unknown;

/** An output schema made ready: what providers are sent, and the check of an answer. */
export interface ResolvedOutput {
  readonly format: OutputFormat;
  /** The value (as the schema outputs it: zod's defaults and transforms applied), or the issues. */
  validate(value: unknown): Promise<{ value: unknown } | { issues: ValidationIssue[] }>;
}

/** Throws a `TypeError` when `value` cannot be an output schema (checked before a run starts). */
export function checkOutputSchema(value: unknown, name = 'output'): asserts value is OutputSchema {
  if (isStandard(value)) return;
  if (!isPlainObject(value))
    throw new TypeError(
      `Expected \`${name}\` to be a zod schema, another Standard Schema or a JSON Schema object, got ${describeValue(value)}`,
    );
}

const resolved = new WeakMap<object, Promise<ResolvedOutput>>();

/**
 * The JSON Schema and the check for an output schema (made once per schema object). Rejects with
 * a `TypeError` when the schema cannot serve: no JSON Schema to be had from it, a JSON Schema that
 * is not sound, or one that does not describe an object (providers want an object at the top:
 * wrap a list in one).
 *
 * @example const { format, validate } = await resolveOutput(z.object({ name: z.string() }));
 */
export function resolveOutput(schema: OutputSchema): Promise<ResolvedOutput> {
  checkOutputSchema(schema);
  let ready = resolved.get(schema);
  if (!ready) {
    ready = make(schema);
    resolved.set(schema, ready);
    ready.catch(() => resolved.delete(schema));
  }
  return ready;
}

async function make(schema: OutputSchema): Promise<ResolvedOutput> {
  const standard = isStandard(schema) ? schema['~standard'] : undefined;
  const json = standard ? await jsonSchemaOf(schema as StandardSchema) : (schema as JSONSchema);
  const { $schema: _dialect, ...sent } = json;
  // The JSON Schema checker (10 KB) is loaded by the first run with an output schema, not by every page.
  const { checkJSONSchema, jsonSchemaProblem } = await import('./check-json-schema');
  const problem = jsonSchemaProblem(sent);
  if (problem) throw new TypeError(`The output schema is not a sound JSON Schema: ${problem}`);
  const top = topOf(sent);
  if (!(top.type === 'object' || (top.type === undefined && isPlainObject(top.properties))))
    throw new TypeError(
      `The output schema must describe an object (providers take an object at the top: wrap a list or a value in one), got type ${JSON.stringify(top.type)}`,
    );
  const format: OutputFormat = { name: nameOf(sent.title), schema: sent };
  if (typeof sent.description === 'string' && sent.description) format.description = sent.description;
  if (standard) {
    return {
      format,
      async validate(value) {
        const result = await standard.validate(value);
        if (!result.issues) return { value: result.value };
        return { issues: result.issues.map(fromStandard) };
      },
    };
  }
  return {
    format,
    async validate(value) {
      const issues = checkJSONSchema(sent, value);
      return issues.length === 0 ? { value } : { issues };
    },
  };
}

function isStandard(value: unknown): value is StandardSchema {
  const props = (value as { '~standard'?: unknown } | null | undefined)?.['~standard'];
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof props === 'object' &&
    props !== null &&
    typeof (props as { validate?: unknown }).validate === 'function'
  );
}

/** The Standard JSON Schema converter if the schema has one; zod's own for zod/mini, which has none. */
async function jsonSchemaOf(schema: StandardSchema): Promise<JSONSchema> {
  const standard = schema['~standard'];
  try {
    if (typeof standard.jsonSchema?.output === 'function')
      return standard.jsonSchema.output({ target: 'draft-2020-12' });
    if (standard.vendor === 'zod') {
      // Only an app that passes a zod/mini schema reaches this; it has zod already.
      const { toJSONSchema } = await import('zod/v4/core');
      return toJSONSchema(schema as never, { target: 'draft-2020-12', io: 'output' }) as JSONSchema;
    }
  } catch (cause) {
    throw new TypeError(`The output schema cannot be written as JSON Schema: ${String(cause)}`, { cause });
  }
  throw new TypeError(
    `The output schema (vendor '${standard.vendor}') gives no JSON Schema (it lacks the Standard JSON Schema extension, '~standard.jsonSchema'): pass its JSON Schema instead`,
  );
}

/** The schema at the top, through a `$ref` there (zod writes recursive schemas so). */
function topOf(schema: JSONSchema): JSONSchema {
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return schema;
  let node: unknown = schema;
  for (const key of ref.slice(2).split('/')) node = isPlainObject(node) ? node[key] : undefined;
  return isPlainObject(node) ? node : schema;
}

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

function nameOf(title: unknown): string {
  return typeof title === 'string' && NAME.test(title) ? title : 'output';
}

function fromStandard(issue: StandardIssue): ValidationIssue {
  const path = (issue.path ?? []).map((step) => {
    const key = typeof step === 'object' && step !== null ? step.key : step;
    return typeof key === 'number' ? key : String(key);
  });
  const code = (issue as { code?: unknown }).code;
  return typeof code === 'string' ? { path, message: issue.message, code } : { path, message: issue.message };
}
