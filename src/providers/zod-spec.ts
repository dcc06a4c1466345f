/**
 * A `ToolSpec` built from zod schemas, apart from the spec's rules (tool-spec.ts): the provider
 * adapters check specs without pulling in zod's JSON Schema code.
 */
import type { $ZodType } from 'zod/v4/core';
import { toJSONSchema } from 'zod/v4/core';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { type JSONSchema, type ToolSpec, validateToolSpec } from './tool-spec';

export interface ToolSpecInit {
  name: string;
  description: string;
  /** A zod object schema for the arguments (zod 4 or zod/mini). */
  input: $ZodType;
  output?: $ZodType;
}

/**
 * Build a `ToolSpec` from zod schemas, with `z.toJSONSchema` in input mode: optional and
 * defaulted fields stay optional.
 *
 * @example
 * toolSpec({ name: 'weather', description: 'Weather for a city.', input: z.object({ city: z.string() }) })
 */
export function toolSpec(init: ToolSpecInit): ToolSpec {
  const spec: ToolSpec = {
    name: init.name,
    description: init.description,
    inputSchema: schemaOf(init.name, init.input, 'input'),
  };
  if (init.output) spec.outputSchema = schemaOf(init.name, init.output, 'output');
  return validateToolSpec(spec);
}

function schemaOf(name: string, schema: $ZodType, io: 'input' | 'output'): JSONSchema {
  let json: JSONSchema;
  try {
    json = toJSONSchema(schema, { io, unrepresentable: 'any' }) as JSONSchema;
  } catch (cause) {
    throw new InvalidToolSpecError({
      toolName: name,
      reason: `its ${io} schema cannot be written as JSON Schema`,
      cause,
    });
  }
  const { $schema: _drop, ...rest } = json;
  return rest;
}
