import type { FilePart, ImagePart } from '../messages/types';

/**
 * What a tool call gave back, converted in the worker. Plain data. A typed pool's results carry
 * the tool's name and its result type (read the value with `resultValue`).
 */
export interface ToolResult<Name extends string = string, Output = unknown> {
  toolCallId: string;
  name: Name;
  /** The text for the model. */
  content: string;
  /** `'json'` when `content` is the JSON of a value (read it back with `resultValue`). */
  kind: 'text' | 'json';
  /** Structured data kept beside the text. */
  artifact?: unknown;
  /** State updates the tool asked for (`withUpdate(result, update)`). */
  update?: Record<string, unknown>;
  /** Images and files the tool gave beside its text (`{ content: parts }`), as base64. */
  media?: (ImagePart | FilePart)[];
  /** Types only, never set: what the tool returned, before it became `content`. */
  readonly '~output'?: Output;
}

/**
 * The value a tool returned: the JSON parsed back, or the text.
 *
 * @example const n = resultValue(await pool.call({ id: 'c1', name: 'multiply', args: { a: 3, b: 12 } })) // 36
 */
export function resultValue<Output>(result: ToolResult<string, Output>): Output {
  return result.kind === 'json' ? JSON.parse(result.content) : (result.content as Output);
}
