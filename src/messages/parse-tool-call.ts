import { isPlainObject } from '../json/json-value';
import { parsePartialJson } from '../json/partial-json-parser';
import type { InvalidToolCall, ToolCall } from './types';

/** A tool call as a model sent it: name and argument text, before anything is checked. */
export interface RawToolCall {
  id: string;
  name?: string | undefined;
  /** The JSON argument text; empty means no arguments (`{}`). */
  args: string;
}

export type ParsedToolCall = { valid: true; toolCall: ToolCall } | { valid: false; invalidToolCall: InvalidToolCall };

export interface ParseToolCallOptions {
  /**
   * Accept arguments that are a cut-off JSON object, parsed best-effort (what a stream shows while
   * it is still arriving). Default `false`: a finished call with incomplete arguments is invalid.
   */
  partial?: boolean;
}

/**
 * Check a raw tool call and parse its arguments: a valid `ToolCall`, or an `InvalidToolCall` that
 * keeps the raw text and says what is wrong. Never throws.
 *
 * @example
 * parseToolCall({ id: 'c1', name: 'weather', args: '{"city":"Paris"}' });
 * // { valid: true, toolCall: { id: 'c1', name: 'weather', args: { city: 'Paris' } } }
 */
export function parseToolCall(raw: RawToolCall, options: ParseToolCallOptions = {}): ParsedToolCall {
  const invalid = (error: string): ParsedToolCall => ({
    valid: false,
    invalidToolCall: raw.name
      ? { id: raw.id, name: raw.name, args: raw.args, error }
      : { id: raw.id, args: raw.args, error },
  });
  if (!raw.name) return invalid('The tool call has no tool name.');
  if (raw.args.trim() === '') return { valid: true, toolCall: { id: raw.id, name: raw.name, args: {} } };
  const parsed = parsePartialJson(raw.args);
  if (parsed.state === 'failed') return invalid(`The arguments are not valid JSON: ${parsed.error}`);
  if (parsed.state === 'repaired' && !options.partial)
    return invalid('The arguments are incomplete JSON (the text ends too early).');
  return toolCallFromArgs(raw.id, raw.name, parsed.value, raw.args);
}

/**
 * A tool call whose arguments arrived as a value (Anthropic `input`, Gemini `args`, Ollama
 * `arguments`): valid when that value is a plain object.
 */
export function toolCallFromArgs(
  id: string,
  name: string | undefined,
  args: unknown,
  rawText?: string,
): ParsedToolCall {
  const text = rawText ?? safeStringify(args);
  if (!name) return { valid: false, invalidToolCall: { id, args: text, error: 'The tool call has no tool name.' } };
  if (args === undefined || args === null) return { valid: true, toolCall: { id, name, args: {} } };
  if (!isPlainObject(args)) {
    return {
      valid: false,
      invalidToolCall: {
        id,
        name,
        args: text,
        error: `The arguments must be a JSON object, got ${describeKind(args)}.`,
      },
    };
  }
  return { valid: true, toolCall: { id, name, args } };
}

function describeKind(value: unknown): string {
  return Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return String(value);
  }
}
