/**
 * What the pool checks before a call is registered (the call, its options) and the typed errors
 * for what it cannot send or start.
 */
import { describeValue } from '../errors/moat-error';
import { checkCallback, checkResultFormat, checkSignal } from '../errors/option-checks';
import { ToolInputValidationError } from '../errors/tool-input-validation-error';
import { WorkerStartError } from '../errors/worker-start-error';
import { isPlainObject } from '../json/json-value';
import type { ToolCall } from '../messages/types';
import type { CallOutcome } from './pool-options';
import type { ToolResult } from './tool-result';

export function checkToolCall(toolCall: ToolCall): Error | undefined {
  try {
    return toolCallProblem(toolCall);
  } catch (error) {
    // A proxy or getter that throws while the call is read.
    return new ToolInputValidationError({
      issues: [
        {
          path: [],
          message: `the tool call could not be read: ${error instanceof Error ? error.message : String(error)}`,
        },
      ],
      cause: error,
    });
  }
}

function toolCallProblem(toolCall: ToolCall): Error | undefined {
  const issues = [];
  if (typeof toolCall !== 'object' || toolCall === null)
    return new TypeError(`Expected a tool call object, got ${describeValue(toolCall)}`);
  if (typeof toolCall.id !== 'string')
    issues.push({ path: ['id'], message: `expected a string, got ${describeValue(toolCall.id)}` });
  if (typeof toolCall.name !== 'string')
    issues.push({ path: ['name'], message: `expected a string, got ${describeValue(toolCall.name)}` });
  if (!isPlainObject(toolCall.args))
    issues.push({ path: ['args'], message: `expected a plain object, got ${describeValue(toolCall.args)}` });
  if (issues.length === 0) return undefined;
  return new ToolInputValidationError({
    toolName: typeof toolCall.name === 'string' ? toolCall.name : undefined,
    toolCallId: typeof toolCall.id === 'string' ? toolCall.id : undefined,
    issues,
  });
}

/** Why a worker could not start, as the typed error callers get. */
export function startFailure(error: unknown): WorkerStartError {
  return new WorkerStartError({ reason: error instanceof Error ? error.message : String(error), cause: error });
}

/** Throws a TypeError naming the first call option that is wrong (a call's own data is checked when it is sent). */
export function checkCallOptions(options: {
  signal?: unknown;
  onDelta?: unknown;
  onRerun?: unknown;
  resultFormat?: unknown;
}): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`Expected call options to be an object, got ${describeValue(options)}`);
  checkSignal(options.signal);
  checkCallback(options.onDelta, 'onDelta');
  checkCallback(options.onRerun, 'onRerun');
  checkResultFormat(options.resultFormat);
}

/** A call whose arguments, state or context cannot be sent to a worker (a function in them, say). */
export function unsendable(
  call: { toolCall: ToolCall; options: { state?: unknown; context?: unknown } },
  error: unknown,
): Error {
  const o = call.options;
  const fields: [string, unknown][] = [
    ['args', call.toolCall.args],
    ['state', o.state],
    ['context', o.context],
  ];
  const bad = fields.find(([, value]) => {
    try {
      structuredClone(value);
      return false;
    } catch {
      return true;
    }
  });
  return new ToolInputValidationError({
    toolName: call.toolCall.name,
    toolCallId: call.toolCall.id,
    issues: [
      {
        path: [bad?.[0] ?? 'args'],
        message: `cannot be sent to a worker: ${error instanceof Error ? error.message : String(error)}`,
        code: 'not_cloneable',
      },
    ],
    cause: error,
  });
}

/** A call's settling as its outcome: a failure is one too (always an Error). */
export function outcomeOf(call: Promise<ToolResult>): Promise<CallOutcome> {
  return call.then(
    (value): CallOutcome => ({ status: 'fulfilled', value }),
    (reason: unknown): CallOutcome => ({
      status: 'rejected',
      reason: reason instanceof Error ? reason : new Error(String(reason)),
    }),
  );
}
