import { describeValue } from '../errors/moat-error';
import { parseToolCall } from './parse-tool-call';
import type { InvalidToolCall, ToolCall, ToolCallChunk } from './types';

export interface MergedToolCallChunks {
  /** Calls whose arguments parse (best-effort) to an object. */
  toolCalls: ToolCall[];
  /** Calls with no name, or whose arguments cannot be a JSON object. */
  invalidToolCalls: InvalidToolCall[];
  /** One merged chunk per call, in call order. */
  chunks: ToolCallChunk[];
}

/**
 * Merge streamed tool-call fragments (LangChain's chunk semantics):
 * - fragments with the same `index` are one call; their `args` concatenate in arrival order;
 * - `id` and `name` are taken from the first fragment that has one: a later empty value does not
 *   erase it, and a repeat of the same value (some providers resend it on every chunk) is not
 *   doubled; a different later value is appended (a name streamed in pieces);
 * - different indexes stay separate, ordered by index; fragments without an index are each a call
 *   of their own, after the indexed ones, in arrival order;
 * - arguments are parsed best-effort: an incomplete prefix parses partially, `""` is `{}`, and text
 *   that cannot be the start of a JSON object makes an `InvalidToolCall` carrying the raw text.
 *
 * Calls without an id get `call_<index>` (or `call_u<n>` for fragments without an index).
 *
 * @example
 * mergeToolCallChunks([
 *   { index: 0, id: 'c1', name: 'add', args: '{"a": 3, ' },
 *   { index: 0, name: '', args: '"b": 1' },
 * ]).toolCalls; // [{ id: 'c1', name: 'add', args: { a: 3, b: 1 } }]
 */
export function mergeToolCallChunks(chunks: Iterable<ToolCallChunk>): MergedToolCallChunks {
  if (typeof (chunks as Partial<Iterable<ToolCallChunk>> | null)?.[Symbol.iterator] !== 'function')
    throw new TypeError(`Expected tool call chunks (an array or iterable), got ${describeValue(chunks)}`);
  const byIndex = new Map<number, ToolCallChunk>();
  const unindexed: ToolCallChunk[] = [];
  for (const chunk of chunks) {
    if (chunk.index === undefined) {
      unindexed.push(copyChunk(chunk));
      continue;
    }
    const merged = byIndex.get(chunk.index);
    if (!merged) byIndex.set(chunk.index, copyChunk(chunk));
    else mergeInto(merged, chunk);
  }
  const merged = [...[...byIndex.entries()].sort((a, b) => a[0] - b[0]).map(([, c]) => c), ...unindexed];

  const toolCalls: ToolCall[] = [];
  const invalidToolCalls: InvalidToolCall[] = [];
  let unindexedCount = 0;
  for (const chunk of merged) {
    const id = chunk.id || (chunk.index === undefined ? `call_u${unindexedCount++}` : `call_${chunk.index}`);
    const parsed = parseToolCall({ id, name: chunk.name, args: chunk.args ?? '' }, { partial: true });
    if (parsed.valid) toolCalls.push(parsed.toolCall);
    else invalidToolCalls.push(parsed.invalidToolCall);
  }
  return { toolCalls, invalidToolCalls, chunks: merged };
}

function copyChunk(chunk: ToolCallChunk): ToolCallChunk {
  const out: ToolCallChunk = {};
  if (chunk.index !== undefined) out.index = chunk.index;
  if (chunk.id) out.id = chunk.id;
  if (chunk.name) out.name = chunk.name;
  out.args = chunk.args ?? '';
  return out;
}

function mergeInto(target: ToolCallChunk, chunk: ToolCallChunk): void {
  if (chunk.id && chunk.id !== target.id) target.id = (target.id ?? '') + chunk.id;
  if (chunk.name && chunk.name !== target.name) target.name = (target.name ?? '') + chunk.name;
  if (chunk.args) target.args = (target.args ?? '') + chunk.args;
}
