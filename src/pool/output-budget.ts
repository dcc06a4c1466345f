/**
 * What the page accepts from its workers: each call's result, each call's progress, and a turn's
 * calls together, measured as they arrive. A worker is untrusted: its output is measured on the
 * page before any of it reaches a caller, and what is over a limit fails its call.
 */
import { type OutputLimitKind, ToolOutputLimitError } from '../errors/tool-output-limit-error';
import { sizeOf } from '../json/size-of';
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
