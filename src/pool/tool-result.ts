/** What a tool call gave back, converted in the worker. Plain data. */
export interface ToolResult {
  toolCallId: string;
  name: string;
  /** The text for the model. */
  content: string;
  /** `'json'` when `content` is the JSON of a value (read it back with `resultValue`). */
  kind: 'text' | 'json';
  /** Structured data kept beside the text. */
  artifact?: unknown;
  /** State updates the tool asked for (`command({ update })`). */
  update?: Record<string, unknown>;
}

/**
 * The value a tool returned: the JSON parsed back, or the text.
 *
 * @example const n = resultValue(await pool.call({ id: 'c1', name: 'multiply', args: { a: 3, b: 12 } })) // 36
 */
export function resultValue(result: ToolResult): unknown {
  return result.kind === 'json' ? JSON.parse(result.content) : result.content;
}
