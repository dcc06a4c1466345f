/**
 * What the page accepts from its workers: each call's result, each call's progress, and a turn's
 * calls together, measured as they arrive. A worker is untrusted: its output is measured on the
 * page before any of it reaches a caller, and what is over a limit fails its call.
 */
import { type OutputLimitKind, ToolOutputLimitError } from '../errors/tool-output-limit-error';
import type { CallResult } from './protocol';

/**
 * The page's limits, each about the length of the output's JSON text in characters (bytes count
 * one each). The defaults keep a phone's tab alive with room to spare: a tool's result reaches
 * the model too, where 8 million characters is already far past any context window.
 */
export interface OutputLimits {
  /** One call's result (its text, artifact, state update and media together). */
  maxResultSize: number;
  /** All the progress one call streams (`emit`, a generator's yields), together. */
  maxProgressSize: number;
  /** Everything a turn's calls send back together: their results and progress. */
  maxTurnSize: number;
}

export const OUTPUT_LIMITS: OutputLimits = {
  maxResultSize: 8 * 2 ** 20,
  maxProgressSize: 16 * 2 ** 20,
  maxTurnSize: 32 * 2 ** 20,
};

/**
 * A turn's budget: calls given the same one (`CallOptions.turn`) share `maxTurnSize`. `callMany`
 * makes one per call; the invoker, one per turn.
 */
export interface TurnBudget {
  /** What the turn's calls have sent back so far. */
  used: number;
}

/** What one call has sent so far, and the turn it belongs to. */
export interface CallSpend {
  progress: number;
  turn?: TurnBudget | undefined;
}

/**
 * Charge one piece of a call's output (`'result'` or a `'progress'` delta); returns the limit it
 * went past, or undefined when it fits (and is counted).
 */
export function charge(
  limits: OutputLimits,
  spend: CallSpend,
  kind: 'result' | 'progress',
  value: unknown,
): OutputLimitKind | undefined {
  const own = kind === 'result' ? limits.maxResultSize : limits.maxProgressSize - spend.progress;
  const turnLeft = spend.turn ? limits.maxTurnSize - spend.turn.used : Number.POSITIVE_INFINITY;
  const size = sizeOf(value, Math.min(own, turnLeft));
  if (size > own) return kind;
  if (size > turnLeft) return 'turn';
  if (kind === 'progress') spend.progress += size;
  if (spend.turn) spend.turn.used += size;
  return undefined;
}

/** The typed error for a call past a limit. */
export function overLimit(
  limits: OutputLimits,
  limit: OutputLimitKind,
  call: { toolCall: { id: string; name: string } },
): ToolOutputLimitError {
  const maxSize =
    limit === 'result' ? limits.maxResultSize : limit === 'progress' ? limits.maxProgressSize : limits.maxTurnSize;
  return new ToolOutputLimitError({ toolName: call.toolCall.name, toolCallId: call.toolCall.id, limit, maxSize });
}

/** A result's parts, as measured: what the page keeps of it. */
export function resultParts(result: CallResult): unknown[] {
  return [result.content, result.artifact, result.update, result.media];
}

/**
 * About how many characters `value`'s JSON text would have (bytes, a Blob's size, one each),
 * counted only until it is past `limit`: a value of hundreds of megabytes is not walked whole to
 * learn that it is too big. Any structured-clone value is measured (Maps, Sets, typed arrays).
 * An object reached twice counts twice, as JSON would write it out twice: a message of a few
 * hundred bytes whose objects share each other can stand for gigabytes of text (and a cycle for
 * an endless one), and goes past any limit here.
 */
export function sizeOf(value: unknown, limit: number): number {
  let size = 0;
  // Values still to measure; arrays and objects are opened as they come off it.
  const stack: unknown[] = [value];
  while (stack.length > 0 && size <= limit) {
    const v = stack.pop();
    if (typeof v === 'string') size += v.length + 2;
    else if (typeof v !== 'object' || v === null) size += 6;
    else {
      size += 2;
      if (ArrayBuffer.isView(v) || v instanceof ArrayBuffer) size += v.byteLength;
      else if (typeof Blob !== 'undefined' && v instanceof Blob) size += v.size;
      else if (Array.isArray(v)) size += pushSome(stack, v, limit - size);
      else if (v instanceof Map || v instanceof Set)
        size += v.size > limit - size ? v.size : pushSome(stack, [...v.entries()], limit - size);
      else {
        const keys = Object.keys(v);
        for (const key of keys) size += key.length + 3;
        size += pushSome(
          stack,
          keys.map((k) => (v as Record<string, unknown>)[k]),
          limit - size,
        );
      }
    }
  }
  return size;
}

/** Push a list's items to measure; the list's own length counts (a comma each), up to `room`. */
function pushSome(stack: unknown[], items: readonly unknown[], room: number): number {
  // Each item takes at least one character: a list longer than the room is too big as it is.
  if (items.length > room) return items.length;
  for (let i = items.length - 1; i >= 0; i--) stack.push(items[i]);
  return items.length;
}
