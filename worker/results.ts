import { findNonJSON } from '../src/json/json-value';
import type { CallResult, ResultFormat } from '../src/pool/protocol';

const UPDATE = Symbol.for('moat.update');
const ARTIFACT = Symbol.for('moat.artifact');

/** A result that also updates the caller's state (LangGraph's `Command`). */
export interface WithUpdate<Result = unknown> {
  readonly [UPDATE]: true;
  result: Result;
  update: Record<string, unknown>;
}

/**
 * Return this from a tool to answer the model with `result` and update the caller's state (the
 * agent's `state`, merged by its `reducers`) with `update`.
 *
 * @example return withUpdate('Added.', { cart: [item] })
 */
export function withUpdate<Result>(result: Result, update: Record<string, unknown>): WithUpdate<Result> {
  return { [UPDATE]: true, result, update };
}

/** A text for the model with structured data kept beside it for the app. */
export interface WithArtifact {
  readonly [ARTIFACT]: true;
  content: string;
  artifact: unknown;
}

/**
 * Return this from a tool to show the model `content` and keep `artifact` for the app. A plain
 * `{ content, artifact }` object (exactly those two keys, `content` a string) means the same.
 *
 * @example return withArtifact(`Found ${rows.length} rows`, rows)
 */
export function withArtifact(content: string, artifact: unknown): WithArtifact {
  return { [ARTIFACT]: true, content, artifact };
}

function isWithUpdate(value: unknown): value is WithUpdate {
  return typeof value === 'object' && value !== null && (value as WithUpdate)[UPDATE] === true;
}

function isWithArtifact(value: unknown): value is { content: string; artifact: unknown } {
  if (typeof value !== 'object' || value === null) return false;
  if ((value as WithArtifact)[ARTIFACT] === true) return true;
  const keys = Object.keys(value);
  return (
    keys.length === 2 &&
    keys.includes('content') &&
    keys.includes('artifact') &&
    typeof (value as { content: unknown }).content === 'string'
  );
}

/** Why a result cannot be used, or the converted result. */
export type Converted = { ok: true; result: CallResult } | { ok: false; reason: string };

/**
 * A tool's return value → the text the model sees (and artifact, state update). Strings stay
 * as they are with `'string'`; with `'json'` every value, strings included, is JSON. Anything
 * JSON cannot hold (a function, a cycle, a class instance, a bigint) is refused, with its path.
 */
export function convertResult(value: unknown, format: ResultFormat = 'string'): Converted {
  if (isWithUpdate(value)) {
    const problem = findNonJSON(value.update);
    if (problem)
      return { ok: false, reason: `the state update at ${path(['update', ...problem.path])} is ${problem.reason}` };
    const inner = convertResult(value.result, format);
    if (!inner.ok) return inner;
    return { ok: true, result: { ...inner.result, update: value.update } };
  }
  if (isWithArtifact(value))
    return { ok: true, result: { content: value.content, kind: 'text', artifact: value.artifact } };
  if (value === undefined)
    return {
      ok: true,
      result: { content: format === 'json' ? 'null' : '', kind: format === 'json' ? 'json' : 'text' },
    };
  if (typeof value === 'string' && format === 'string') return { ok: true, result: { content: value, kind: 'text' } };
  const problem = findNonJSON(value);
  if (problem) return { ok: false, reason: `${path(problem.path)} is ${problem.reason}` };
  return { ok: true, result: { content: JSON.stringify(value), kind: 'json' } };
}

function path(steps: (string | number)[]): string {
  return steps.length === 0 ? 'the result' : `result.${steps.join('.')}`;
}
