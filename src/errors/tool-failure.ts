/**
 * A failed call as a person reads it: what kind of failure it was (for an icon, a colour, a
 * "try again" button) and one short sentence, with no call ids and none of the advice the model
 * is given. Read from the error's class, which survives a worker, `postMessage` and storage
 * (`isInstance` goes by name), so a revived error reads the same as the one thrown.
 */
import { CodeError } from './code-error';
import { MoatError } from './moat-error';
import { NetworkDeniedError } from './network-denied-error';
import { PoolClosedError } from './pool-closed-error';
import { PoolQueueFullError } from './pool-queue-full-error';
import { SandboxCrashedError } from './sandbox-crashed-error';
import { SandboxLimitError } from './sandbox-limit-error';
import { ToolDeniedError } from './tool-denied-error';
import { ToolExecutionError } from './tool-execution-error';
import { ToolInputValidationError } from './tool-input-validation-error';
import { ToolNotFoundError } from './tool-not-found-error';
import { ToolOutputError } from './tool-output-error';
import { ToolOutputLimitError } from './tool-output-limit-error';
import { ToolTimeoutError } from './tool-timeout-error';
import { WorkerCrashedError } from './worker-crashed-error';
import { WorkerStartError } from './worker-start-error';

/**
 * - `timeout`: it ran past its time limit and was stopped;
 * - `denied`: a person or the agent's policy refused it (it did not run);
 * - `network-denied`: it reached for a URL the pool's `network` policy does not allow;
 * - `invalid-input`: the model's arguments did not fit the tool (the model is told, and may try again);
 * - `not-found`: the model called a tool that is not offered;
 * - `crashed`: the worker or sandbox running it died (or was stopped for another call's fault);
 * - `output-limit`: it sent back more than the page accepts;
 * - `invalid-output`: it sent back something the page cannot use;
 * - `unavailable`: the tools could not take it (their pool closed, full, or unable to start);
 * - `stopped`: the run was stopped while it ran;
 * - `interrupted`: the page went away while it ran (it is not run again);
 * - `failed`: the tool itself threw, or anything else.
 */
export type ToolFailureKind =
  | 'timeout'
  | 'denied'
  | 'network-denied'
  | 'invalid-input'
  | 'not-found'
  | 'crashed'
  | 'output-limit'
  | 'invalid-output'
  | 'unavailable'
  | 'stopped'
  | 'interrupted'
  | 'failed';

/** A failed call for a person: JSON data, kept with the thread so a reload shows the same. */
export interface ToolFailure {
  readonly kind: ToolFailureKind;
  /** One short sentence ("Timed out after 10 s."), no call ids. */
  readonly message: string;
}

/** The longest message: a tool's own words are cut there. */
const MAX_MESSAGE = 300;

/**
 * The kind and the person's sentence of a failed call's error (thrown, or revived).
 *
 * @example toolFailure(new ToolTimeoutError({ toolName: 'weather', timeoutMs: 10_000 })) // { kind: 'timeout', message: 'Timed out after 10 s.' }
 */
export function toolFailure(error: unknown): ToolFailure {
  const [kind, message] = read(error);
  return { kind, message: cut(message) };
}

const KINDS: ReadonlySet<string> = new Set<ToolFailureKind>([
  'timeout',
  'denied',
  'network-denied',
  'invalid-input',
  'not-found',
  'crashed',
  'output-limit',
  'invalid-output',
  'unavailable',
  'stopped',
  'interrupted',
  'failed',
]);

/** A stored value as a `ToolFailure` (a copy of its two fields), or `undefined` when it is not one. */
export function toolFailureFrom(value: unknown): ToolFailure | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { kind, message } = value as { kind?: unknown; message?: unknown };
  if (typeof kind !== 'string' || !KINDS.has(kind) || typeof message !== 'string') return undefined;
  return { kind: kind as ToolFailureKind, message: cut(message) };
}

/**
 * A failure read from an error result's text alone, for a result whose error was not seen (a
 * tool's own error answer, a thread saved before failures were kept): `failed`, with the text
 * the model read less the invoker's `Error: ` and its advice, and without call ids.
 */
export function failureFromText(text: string): ToolFailure {
  const own = text.replace(/^Error: /, '').replace(/\s*Please fix your mistakes\.$/, '');
  return { kind: 'failed', message: cut(withoutCallIds(own)) || 'Failed.' };
}

/** A failure for a call cut off by the page going away (nothing threw: the next run finds it). */
export const INTERRUPTED: ToolFailure = {
  kind: 'interrupted',
  message: 'Interrupted: the page closed while it ran. It was not run again.',
};

function read(error: unknown): [ToolFailureKind, string] {
  // A tool that gives up on its aborted signal throws the signal's reason back: it was stopped too.
  if (isAbort(error) || (ToolExecutionError.isInstance(error) && isAbort(error.cause))) return ['stopped', 'Stopped.'];
  if (ToolTimeoutError.isInstance(error)) return ['timeout', `Timed out after ${duration(error.timeoutMs)}.`];
  if (ToolDeniedError.isInstance(error))
    return ['denied', error.reason ? `Not approved: ${error.reason}.` : 'Not approved.'];
  if (NetworkDeniedError.isInstance(error)) return ['network-denied', `Not allowed to reach ${hostOf(error.url)}.`];
  if (ToolInputValidationError.isInstance(error))
    return ['invalid-input', `The model's arguments did not fit the tool${issuesOf(error)}.`];
  if (ToolNotFoundError.isInstance(error))
    return ['not-found', `No tool named ${error.toolName === undefined ? 'that' : `'${error.toolName}'`} is offered.`];
  if (WorkerCrashedError.isInstance(error)) {
    const culprit = error.culprit;
    return [
      'crashed',
      culprit && culprit.toolCallId !== error.toolCallId
        ? `Its worker was stopped for another call ('${culprit.toolName}'); it was not run again.`
        : withoutCallIds(error.message),
    ];
  }
  if (SandboxCrashedError.isInstance(error)) return ['crashed', error.message];
  if (ToolOutputLimitError.isInstance(error)) return ['output-limit', 'It sent back more than the page accepts.'];
  if (SandboxLimitError.isInstance(error))
    return ['output-limit', `The script's ${error.limit} is longer than the limit (${error.max} characters).`];
  if (ToolOutputError.isInstance(error)) return ['invalid-output', 'It sent back a result the page cannot use.'];
  if (PoolClosedError.isInstance(error)) return ['unavailable', 'The tools are shut down.'];
  if (PoolQueueFullError.isInstance(error)) return ['unavailable', 'Too many calls are waiting: try again later.'];
  if (WorkerStartError.isInstance(error)) return ['unavailable', 'The tools could not start.'];
  if (ToolExecutionError.isInstance(error)) return ['failed', `Failed: ${causeText(error)}`];
  if (CodeError.isInstance(error)) return ['failed', `The script failed: ${error.message}`];
  if (MoatError.isInstance(error) || error instanceof Error)
    return ['failed', `Failed: ${withoutCallIds(error.message)}`];
  return ['failed', 'Failed.'];
}

/** Stopped by its signal: an `AbortError` from anywhere (a `DOMException`, or one revived by name). */
function isAbort(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { name?: unknown }).name === 'AbortError';
}

/** What the tool threw, without the call's id the error's own message names. */
function causeText(error: Error): string {
  const cause = (error as { cause?: unknown }).cause;
  if (typeof cause === 'string' && cause !== '') return cause;
  if (typeof cause === 'object' && cause !== null) {
    const message = (cause as { message?: unknown }).message;
    if (typeof message === 'string' && message !== '') return message;
  }
  // The error's own text is `Tool 'x' (call id) failed: reason`: the reason is what is left.
  return withoutCallIds(error.message.replace(/^Tool .*? failed: /, ''));
}

/** A message without the `(call id)` that `describeCall` writes. */
function withoutCallIds(text: string): string {
  return text.replace(/ \(call [^)]*\)/g, '');
}

function issuesOf(error: ToolInputValidationError): string {
  const issues = Array.isArray(error.issues) ? error.issues : [];
  const first = issues[0];
  if (!first) return '';
  const path = Array.isArray(first.path) && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
  return ` (${path}${first.message}${issues.length > 1 ? `, and ${issues.length - 1} more` : ''})`;
}

function hostOf(url: unknown): string {
  if (typeof url !== 'string') return 'that address';
  try {
    return new URL(url).host || url;
  } catch {
    return url;
  }
}

function duration(ms: unknown): string {
  if (typeof ms !== 'number' || !Number.isFinite(ms)) return 'its time limit';
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`;
}

function cut(text: string): string {
  const line = text.trim();
  return line.length > MAX_MESSAGE ? `${line.slice(0, MAX_MESSAGE - 1)}…` : line;
}
