/**
 * What a worker's batch of results does to the calls it answers: each result or error settles
 * its call, each delta goes to the caller's `onDelta`, and the started count it carries is
 * noted. Only calls the pool still holds on that worker are touched: an answer to a call settled
 * or sent elsewhere since (aborted, timed out, re-run) is dropped.
 */
import { describeValue } from '../errors/moat-error';
import { isSerializedError, reviveError, type SerializedError } from '../errors/serialize-error';
import { ToolOutputError } from '../errors/tool-output-error';
import { findNonJSON, isPlainObject } from '../json/json-value';
import { mediaProblem } from '../messages/message-json';
import { charge, type OutputLimits, overLimit, resultParts } from './output-budget';
import type { CallLedger, PoolCall } from './pool-call';
import type { CallResult, OutEntry, WorkerToPage } from './protocol';
import type { WorkerHandle } from './worker-handle';

type Out = Extract<WorkerToPage, { t: 'out' }>;

/**
 * True for an `out` message of the protocol: a started count and entries that each answer one
 * call. A worker that sends anything else is not ours (the pool stops it).
 */
export function isOutMessage(message: { t: 'out' }): message is Out {
  const { started, out } = message as Partial<Out>;
  return isCount(started) && Array.isArray(out) && out.every(isEntry);
}

/** A count of calls: what a worker says it started. */
const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n) && n >= 0;

function isEntry(entry: unknown): entry is OutEntry {
  if (typeof entry !== 'object' || entry === null || typeof (entry as OutEntry).id !== 'number') return false;
  if (Object.hasOwn(entry, 'result')) {
    const result = (entry as { result: unknown }).result;
    return (
      typeof result === 'object' && result !== null && typeof (result as { content?: unknown }).content === 'string'
    );
  }
  if (Object.hasOwn(entry, 'error')) return isSerializedError((entry as { error: unknown }).error);
  return Object.hasOwn(entry, 'delta');
}

/** Where a worker's output goes: the calls, the clock, and the page's limits on what it accepts. */
export interface ResultSink {
  calls: CallLedger;
  /** Told of answers to calls no longer held (a cancelled call that stopped in time). */
  clock: { answered(id: number): void };
  limits: OutputLimits;
  /** A call still running sent more progress than the page accepts: fail it and stop it. */
  refuse(call: PoolCall, error: Error): void;
}

/**
 * Settle the calls an `out` message answers on `handle`. Each piece is measured against the
 * page's limits before a caller sees it: a result over its limit fails its call, and progress
 * over its limit fails and stops the call (`ToolOutputLimitError`); what was over is dropped.
 */
export function deliverResults(handle: WorkerHandle, message: Out, sink: ResultSink): void {
  const { calls, limits } = sink;
  handle.reported(message.started);
  for (const entry of message.out) {
    // As the worker wrote it (and isOutMessage read it): a result, else an error, else a delta.
    const { result, error } = entry as { result?: CallResult; error?: SerializedError };
    const answer = result !== undefined || error !== undefined;
    const call = calls.get(entry.id);
    if (!call || call.worker !== handle) {
      if (answer && handle.answered(entry.id) === 'cancelled') sink.clock.answered(entry.id);
      continue;
    }
    if (!answer) {
      const delta = (entry as { delta: unknown }).delta;
      const over = charge(limits, call.spend, 'progress', delta);
      if (over) sink.refuse(call, overLimit(limits, over, call));
      else if (call.options.onDelta) notify(call.options.onDelta, delta, call.toolCall.id);
      continue;
    }
    handle.answered(entry.id);
    // An error is output too: its message reaches the model and the thread.
    const over = charge(limits, call.spend, 'result', result ? resultParts(result) : error);
    if (over) calls.settle(call, overLimit(limits, over, call));
    else if (result) {
      const read = readResult(result);
      const { id: toolCallId, name: toolName } = call.toolCall;
      if (typeof read === 'string') calls.settle(call, new ToolOutputError({ toolName, toolCallId, reason: read }));
      else calls.settle(call, undefined, { ...read, toolCallId, name: toolName });
    } else calls.settle(call, reviveError(error as SerializedError));
  }
}

/**
 * A worker's result, read into a fresh object of the fields the protocol names, each checked;
 * or what is wrong with it. Images and files are checked here, where they arrive (a worker whose
 * own check was undone could send a URL the page would fetch).
 */
export function readResult(result: CallResult): CallResult | string {
  const { content, kind, artifact, update, media } = result;
  if (kind !== 'text' && kind !== 'json') return `its kind is ${describeValue(kind)}, not 'text' or 'json'`;
  if (update !== undefined && !isPlainObject(update))
    return `its state update is ${describeValue(update)}, not an object`;
  // Both are kept with the thread (JSON): what is not JSON data would fail the run's next save.
  for (const [what, value] of [
    ['artifact', artifact],
    ['state update', update],
  ] as const) {
    const bad = value === undefined ? undefined : findNonJSON(value);
    if (bad)
      return `its ${what} is not JSON data (${bad.path.length ? `at ${bad.path.join('.')}: ` : ''}${bad.reason})`;
  }
  const read: CallResult = { content, kind };
  if (artifact !== undefined) read.artifact = artifact;
  if (update !== undefined) read.update = update;
  if (media !== undefined) {
    const issue = mediaProblem(media);
    if (issue)
      return `its images and files are not usable (${issue.path ? `media.${issue.path.join('.')}: ` : ''}${issue.message})`;
    if (media.length > 0) read.media = media;
  }
  return read;
}

/**
 * Call a caller's callback. What it throws is reported as uncaught, a microtask later, rather
 * than let loose in the pool's bookkeeping (the call it concerns goes on).
 */
export function notify<A extends unknown[]>(callback: (...args: A) => void, ...args: A): void {
  try {
    callback(...args);
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}
