/**
 * What the pool checks: a call and its options before it is registered, a worker's answers to
 * `configure` and `describe` before they are used (a worker is hostile input), and the typed
 * errors for what it cannot send or start.
 */
import { describeValue } from '../errors/moat-error';
import { checkCallback, checkDuration, checkResultFormat, checkSignal } from '../errors/option-checks';
import { isSerializedError, reviveError } from '../errors/serialize-error';
import { ToolInputValidationError } from '../errors/tool-input-validation-error';
import { WorkerStartError } from '../errors/worker-start-error';
import { isPlainObject } from '../json/json-value';
import type { ToolCall } from '../messages/types';
import type { CallOutcome, ToolResult } from './pool-options';
import { PROTOCOL_VERSION, type ToolDescriptor } from './protocol';

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
  timeoutMs?: number | undefined;
  defaultTimeoutMs?: number | undefined;
}): void {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`Expected call options to be an object, got ${describeValue(options)}`);
  checkSignal(options.signal);
  checkCallback(options.onDelta, 'onDelta');
  checkCallback(options.onRerun, 'onRerun');
  checkResultFormat(options.resultFormat);
  if (options.timeoutMs !== undefined) checkDuration('timeoutMs', options.timeoutMs);
  if (options.defaultTimeoutMs !== undefined) checkDuration('defaultTimeoutMs', options.defaultTimeoutMs);
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

/** What a worker's answer to `configure` says, checked; or why it cannot be used. */
export function readReady(
  answer: unknown,
): { names: string[]; idempotent: Set<string>; timeouts: Map<string, number> } | string {
  const ready = isPlainObject(answer) ? answer : {};
  const { version, names, idempotent } = ready;
  if (version !== PROTOCOL_VERSION)
    return `the worker speaks version ${typeof version === 'number' ? version : describeValue(version)} of the pool protocol, the page version ${PROTOCOL_VERSION} (use one version of moat on both sides)`;
  if (!isNames(names) || !isNames(idempotent))
    return `it said it was ready, naming its tools as ${describeValue(names)} (a list of names expected)`;
  return { names: [...names], idempotent: new Set(idempotent), timeouts: timeoutsIn(ready.timeouts) };
}

/** The answer to `describe`: the descriptors (the catalog checks each), or the error that prevented them. */
export function readDescribeAnswer(answer: unknown): ToolDescriptor[] {
  if (!isPlainObject(answer)) throw new TypeError(`it answered describe() with ${describeValue(answer)}`);
  if (Object.hasOwn(answer, 'error'))
    throw isSerializedError(answer.error) ? reviveError(answer.error) : new Error(describeValue(answer.error));
  return answer.descriptors as ToolDescriptor[];
}

/** A list of tool names, as a worker's `ready` gives them. */
function isNames(value: unknown): value is string[] {
  return Array.isArray(value) && value.length <= 10_000 && value.every((n) => typeof n === 'string' && n.length <= 64);
}

/** A ready answer's declared limits, checked. */
function timeoutsIn(value: unknown): Map<string, number> {
  const out = new Map<string, number>();
  if (typeof value !== 'object' || value === null) return out;
  for (const [name, ms] of Object.entries(value)) if (typeof ms === 'number' && ms > 0) out.set(name, ms);
  return out;
}
