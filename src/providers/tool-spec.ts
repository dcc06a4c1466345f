import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { describeValue } from '../errors/moat-error';
import { isPlainObject } from '../json/json-value';

/** A JSON Schema, as plain data. */
export type JSONSchema = Record<string, unknown>;

/**
 * What a model is told about a tool: the provider-neutral form every `to*Tools` function takes.
 * Plain data: it comes from the workers over `postMessage`.
 */
export interface ToolSpec {
  name: string;
  description: string;
  /** JSON Schema of the arguments object. */
  inputSchema: JSONSchema;
  /** JSON Schema of the result, when the tool declares one. */
  outputSchema?: JSONSchema;
  /** False for inline tools, which run on the page; absent (isolated) for worker tools. */
  isolated?: boolean;
  /** True when an agent must ask a person before running it (`defineTool({ needsApproval })`); never sent to a model. */
  needsApproval?: boolean;
  /** True when it only reads (`defineTool({ readOnly })`, an MCP tool's `readOnlyHint`); never sent to a model. */
  readOnly?: boolean;
}

/** The rule every provider accepts for tool names. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Check a spec against the providers' rules; returns it unchanged or throws `InvalidToolSpecError`.
 *
 * @example validateToolSpec(await pool.specs()[0])
 */
export function validateToolSpec(spec: unknown): ToolSpec {
  const s = isPlainObject(spec) ? spec : {};
  const name = s.name;
  const fail = (reason: string): never => {
    throw new InvalidToolSpecError({ toolName: name, reason });
  };
  if (!isPlainObject(spec)) fail(`a tool spec must be an object, got ${typeof spec}`);
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    fail('names must be 1 to 64 characters of a-z, A-Z, 0-9, _ or - (the rule OpenAI, Anthropic and Gemini share)');
  }
  if (typeof s.description !== 'string') fail('the description must be a string');
  if (!isPlainObject(s.inputSchema)) fail('the input schema must be a JSON Schema object');
  const type = (s.inputSchema as JSONSchema).type;
  if (type !== undefined && type !== 'object') {
    fail(`the input schema must describe an object (type 'object'), got type ${JSON.stringify(type)}`);
  }
  return spec as ToolSpec;
}

/**
 * Where a JSON Schema breaks OpenAI's strict structured-output rules: every object needs
 * `additionalProperties: false` and every property listed in `required` (make a field nullable
 * rather than optional). Returns one message per problem, with its path; empty when it complies.
 */
export function strictModeProblems(schema: JSONSchema, path = '$'): string[] {
  const problems: string[] = [];
  const visit = (node: unknown, at: string) => {
    if (!isPlainObject(node)) return;
    const isObject = node.type === 'object' || isPlainObject(node.properties);
    if (isObject) {
      if (node.additionalProperties !== false) problems.push(`${at}: objects need additionalProperties: false`);
      const required = new Set(Array.isArray(node.required) ? node.required : []);
      for (const key of Object.keys(isPlainObject(node.properties) ? node.properties : {})) {
        if (!required.has(key))
          problems.push(`${at}.${key}: is optional; strict mode wants it required (nullable instead)`);
      }
    }
    for (const [key, child] of Object.entries(isPlainObject(node.properties) ? node.properties : {}))
      visit(child, `${at}.${key}`);
    if (node.items !== undefined) visit(node.items, `${at}[]`);
    for (const k of ['anyOf', 'oneOf', 'allOf'] as const) {
      const list = node[k];
      if (Array.isArray(list)) for (const [i, child] of list.entries()) visit(child, `${at}.${k}[${i}]`);
    }
    for (const k of ['$defs', 'definitions'] as const) {
      const defs = node[k];
      if (isPlainObject(defs)) for (const [name, child] of Object.entries(defs)) visit(child, `${at}.${k}.${name}`);
    }
  };
  visit(schema, path);
  return problems;
}

/** `validateToolSpec` for each, and no name twice. */
export function validateToolSpecs(specs: readonly unknown[]): ToolSpec[] {
  if (!Array.isArray(specs)) throw new TypeError(`Expected a list of tool specs, got ${describeValue(specs)}`);
  const seen = new Set<string>();
  return specs.map((spec) => {
    const valid = validateToolSpec(spec);
    if (seen.has(valid.name))
      throw new InvalidToolSpecError({ toolName: valid.name, reason: 'two tools have this name' });
    seen.add(valid.name);
    return valid;
  });
}
