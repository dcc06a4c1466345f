/**
 * A small JSON Schema checker for structured output: what providers accept in an output schema
 * (type, properties, required, additionalProperties, items, prefixItems, enum, const, anyOf,
 * oneOf, allOf, not, local $ref, and the string, number and array bounds). Keywords it does not
 * know (title, description, format, default…) constrain nothing here, as in most validators.
 */
import type { ValidationIssue } from '../errors/message-validation-error';
import { isPlainObject } from '../json/json-value';
import type { JSONSchema } from '../providers/tool-spec';

type Path = (string | number)[];

const TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array', 'null']);
const NUMBER_KEYWORDS = [
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minLength',
  'maxLength',
  'minItems',
  'maxItems',
] as const;
/** Steps through $ref, anyOf, allOf, oneOf or not without reading deeper into the value. */
const MAX_HOPS = 64;

/**
 * What makes `schema` unreadable as a JSON Schema (a type name that does not exist, `required`
 * that is not a list of names, a `$ref` that points nowhere, a pattern that does not compile…),
 * with its place (`$.properties.born.type`); `undefined` when it is sound.
 *
 * @example jsonSchemaProblem({ type: 'strin' }) // "$.type: 'strin' is not a JSON Schema type (…)"
 */
export function jsonSchemaProblem(schema: unknown): string | undefined {
  if (!isPlainObject(schema)) return '$: a JSON Schema is an object';
  const seen = new Set<unknown>();
  const visit = (node: unknown, at: string): string | undefined => {
    if (typeof node === 'boolean') return undefined;
    if (!isPlainObject(node)) return `${at}: a schema must be an object or a boolean`;
    if (seen.has(node)) return undefined;
    seen.add(node);
    const { type, properties, required, enum: values, pattern, $ref } = node;
    const types = Array.isArray(type) ? type : type === undefined ? [] : [type];
    for (const t of types)
      if (typeof t !== 'string' || !TYPES.has(t))
        return `${at}.type: ${JSON.stringify(t)} is not a JSON Schema type (${[...TYPES].join(', ')})`;
    if (properties !== undefined && !isPlainObject(properties)) return `${at}.properties: must be an object`;
    if (required !== undefined && !(Array.isArray(required) && required.every((k) => typeof k === 'string')))
      return `${at}.required: must be a list of property names`;
    if (values !== undefined && !Array.isArray(values)) return `${at}.enum: must be a list`;
    for (const key of NUMBER_KEYWORDS)
      if (node[key] !== undefined && typeof node[key] !== 'number') return `${at}.${key}: must be a number`;
    if (pattern !== undefined && (typeof pattern !== 'string' || regexOf(pattern) === undefined))
      return `${at}.pattern: ${JSON.stringify(pattern)} is not a regular expression`;
    if ($ref !== undefined && (typeof $ref !== 'string' || resolveRef(schema, $ref) === undefined))
      return `${at}.$ref: ${JSON.stringify($ref)} points nowhere in this schema`;
    const children: [unknown, string][] = [];
    for (const [key, child] of Object.entries(isPlainObject(properties) ? properties : {}))
      children.push([child, `${at}.properties.${key}`]);
    for (const key of ['items', 'additionalProperties', 'not'] as const)
      if (node[key] !== undefined) children.push([node[key], `${at}.${key}`]);
    for (const key of ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const) {
      const list = node[key];
      if (list === undefined) continue;
      if (!Array.isArray(list) || list.length === 0) return `${at}.${key}: must be a non-empty list of schemas`;
      for (const [i, child] of list.entries()) children.push([child, `${at}.${key}[${i}]`]);
    }
    for (const key of ['$defs', 'definitions'] as const) {
      const defs = node[key];
      if (defs === undefined) continue;
      if (!isPlainObject(defs)) return `${at}.${key}: must be an object`;
      for (const [name, child] of Object.entries(defs)) children.push([child, `${at}.${key}.${name}`]);
    }
    for (const [child, where] of children) {
      const problem = visit(child, where);
      if (problem) return problem;
    }
    return undefined;
  };
  return visit(schema, '$');
}

/**
 * Where `value` does not fit `schema`: one issue per problem, with the path to it. Empty when it
 * fits. The schema is taken as sound (see `jsonSchemaProblem`).
 *
 * @example
 * checkJSONSchema({ type: 'object', properties: { born: { type: 'integer' } }, required: ['born'] }, { born: 1.5 })
 * // [{ path: ['born'], message: 'expected integer, got number', code: 'invalid_type' }]
 */
export function checkJSONSchema(schema: JSONSchema, value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  check(schema, schema, value, [], issues, 0);
  return issues;
}

function check(root: JSONSchema, schema: unknown, value: unknown, path: Path, out: ValidationIssue[], hops: number) {
  const issue = (message: string, code: string, at: Path = path) => out.push({ path: [...at], message, code });
  if (schema === false) return issue('no value is allowed here', 'invalid_value');
  if (!isPlainObject(schema)) return;
  if (hops > MAX_HOPS) return issue('the schema refers to itself without end ($ref)', 'invalid_schema');
  const s = schema;
  if (typeof s.$ref === 'string') {
    const target = resolveRef(root, s.$ref);
    if (target !== undefined) check(root, target, value, path, out, hops + 1);
  }
  const type = typeOf(value);
  if (s.type !== undefined) {
    const allowed = Array.isArray(s.type) ? (s.type as string[]) : [s.type as string];
    if (!allowed.some((t) => t === type || (t === 'number' && type === 'integer')))
      return issue(`expected ${allowed.join(' or ')}, got ${type === 'integer' ? 'number' : type}`, 'invalid_type');
  }
  if (Array.isArray(s.enum) && !s.enum.some((option) => sameJSON(option, value)))
    issue(`expected one of ${s.enum.map((o) => JSON.stringify(o)).join(' | ')}`, 'invalid_value');
  if ('const' in s && !sameJSON(s.const, value)) issue(`expected ${JSON.stringify(s.const)}`, 'invalid_value');
  if (Array.isArray(s.allOf)) for (const part of s.allOf) check(root, part, value, path, out, hops + 1);
  if (Array.isArray(s.anyOf)) union(root, s.anyOf, value, path, out, hops, 'any');
  if (Array.isArray(s.oneOf)) union(root, s.oneOf, value, path, out, hops, 'one');
  if (s.not !== undefined && fits(root, s.not, value, hops + 1)) issue('matches a shape it must not', 'invalid_value');
  if (typeof value === 'string') checkString(s, value, issue);
  else if (typeof value === 'number') checkNumber(s, value, issue);
  else if (Array.isArray(value)) {
    checkCount(s, value.length, 'minItems', 'maxItems', 'item', issue);
    const prefix = Array.isArray(s.prefixItems) ? s.prefixItems : [];
    value.forEach((item, i) => {
      const itemSchema = i < prefix.length ? prefix[i] : s.items;
      if (itemSchema !== undefined) check(root, itemSchema, item, [...path, i], out, 0);
    });
    if (s.uniqueItems === true) {
      const at = value.findIndex((item, i) => value.findIndex((other) => sameJSON(item, other)) !== i);
      if (at >= 0) issue(`item ${at} repeats an earlier one (items must be unique)`, 'invalid_value');
    }
  } else if (isPlainObject(value)) {
    const properties = isPlainObject(s.properties) ? s.properties : {};
    for (const key of Array.isArray(s.required) ? (s.required as string[]) : [])
      if (!Object.hasOwn(value, key)) issue('missing (required)', 'missing', [...path, key]);
    for (const key of Object.keys(value)) {
      const field = value[key];
      if (Object.hasOwn(properties, key)) check(root, properties[key], field, [...path, key], out, 0);
      else if (s.additionalProperties === false) issue('unexpected key', 'unrecognized_keys', [...path, key]);
      else if (s.additionalProperties !== undefined) check(root, s.additionalProperties, field, [...path, key], out, 0);
    }
  }
}

/** anyOf (at least one fits) or oneOf (exactly one). */
function union(
  root: JSONSchema,
  options: unknown[],
  value: unknown,
  path: Path,
  out: ValidationIssue[],
  hops: number,
  mode: 'any' | 'one',
) {
  const fitting = options.filter((option) => fits(root, option, value, hops + 1)).length;
  if (fitting === 1 || (mode === 'any' && fitting > 1)) return;
  if (fitting > 1) {
    out.push({
      path: [...path],
      message: `fits ${fitting} of the allowed shapes (exactly one must)`,
      code: 'invalid_union',
    });
    return;
  }
  // Nothing fits. When one option alone takes this kind of value (the object of a nullable
  // object, say), its issues say more than "no option fits".
  const type = typeOf(value);
  const sameKind = options.filter((option) => acceptsType(root, option, type));
  if (sameKind.length === 1) return check(root, sameKind[0], value, path, out, hops + 1);
  out.push({
    path: [...path],
    message: `fits none of the ${options.length} allowed shapes`,
    code: 'invalid_union',
  });
}

function fits(root: JSONSchema, schema: unknown, value: unknown, hops: number): boolean {
  const issues: ValidationIssue[] = [];
  check(root, schema, value, [], issues, hops);
  return issues.length === 0;
}

function acceptsType(root: JSONSchema, schema: unknown, type: string): boolean {
  let s = schema;
  for (let i = 0; i < MAX_HOPS && isPlainObject(s) && typeof s.$ref === 'string'; i++) s = resolveRef(root, s.$ref);
  if (!isPlainObject(s) || s.type === undefined) return s !== false;
  const allowed = Array.isArray(s.type) ? s.type : [s.type];
  return allowed.some((t) => t === type || (t === 'number' && type === 'integer'));
}

type Report = (message: string, code: string) => void;

function checkString(s: Record<string, unknown>, value: string, issue: Report) {
  // Lengths in characters (code points), as JSON Schema counts them.
  const length = s.minLength !== undefined || s.maxLength !== undefined ? [...value].length : 0;
  checkCount(s, length, 'minLength', 'maxLength', 'character', issue);
  if (typeof s.pattern === 'string') {
    const regex = regexOf(s.pattern);
    if (regex && !regex.test(value)) issue(`does not match the pattern /${s.pattern}/`, 'invalid_format');
  }
}

function checkNumber(s: Record<string, unknown>, value: number, issue: Report) {
  const { minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf } = s;
  if (typeof minimum === 'number' && value < minimum) issue(`too small: expected at least ${minimum}`, 'too_small');
  if (typeof maximum === 'number' && value > maximum) issue(`too big: expected at most ${maximum}`, 'too_big');
  if (typeof exclusiveMinimum === 'number' && value <= exclusiveMinimum)
    issue(`too small: expected more than ${exclusiveMinimum}`, 'too_small');
  if (typeof exclusiveMaximum === 'number' && value >= exclusiveMaximum)
    issue(`too big: expected less than ${exclusiveMaximum}`, 'too_big');
  if (typeof multipleOf === 'number' && multipleOf > 0) {
    const ratio = value / multipleOf;
    if (Math.abs(ratio - Math.round(ratio)) > 1e-9) issue(`expected a multiple of ${multipleOf}`, 'not_multiple_of');
  }
}

function checkCount(
  s: Record<string, unknown>,
  count: number,
  minKey: string,
  maxKey: string,
  unit: string,
  issue: Report,
) {
  const min = s[minKey];
  const max = s[maxKey];
  if (typeof min === 'number' && count < min) issue(`too short: expected at least ${min} ${unit}s`, 'too_small');
  if (typeof max === 'number' && count > max) issue(`too long: expected at most ${max} ${unit}s`, 'too_big');
}

/** JSON's kind of a value, with whole numbers told apart as 'integer'. */
function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

function sameJSON(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    return a.length === other.length && a.every((item, i) => sameJSON(item, other[i]));
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const bo = b as Record<string, unknown>;
  return (
    ka.length === kb.length &&
    ka.every((k) => Object.hasOwn(bo, k) && sameJSON((a as Record<string, unknown>)[k], bo[k]))
  );
}

/** A local reference: `#`, or a JSON Pointer into the schema (`#/$defs/Person`). */
function resolveRef(root: JSONSchema, ref: string): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isPlainObject(node) && !Array.isArray(node)) return undefined;
    if (!Object.hasOwn(node, key)) return undefined;
    node = (node as Record<string, unknown>)[key];
  }
  return node;
}

const regexes = new Map<string, RegExp | undefined>();

function regexOf(pattern: string): RegExp | undefined {
  if (!regexes.has(pattern)) {
    let regex: RegExp | undefined;
    try {
      regex = new RegExp(pattern, 'u');
    } catch {
      regex = undefined;
    }
    regexes.set(pattern, regex);
  }
  return regexes.get(pattern);
}
