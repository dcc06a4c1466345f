/**
 * What a worker's batch of results does to the calls it answers: each result or error settles
 * its call, each delta goes to the caller's `onDelta`, and the started count it carries is
 * noted. Only calls the pool still holds on that worker are touched: an answer to a call settled
 * or sent elsewhere since (aborted, timed out, re-run) is dropped.
 */
import { isSerializedError, reviveError, type SerializedError } from '../errors/serialize-error';
import type { CallLedger } from './call-ledger';
import type { CallResult, OutEntry, WorkerToPage } from './protocol';
import type { WorkerHandle } from './worker-handle';

type Out = Extract<WorkerToPage, { t: 'out' }>;

/**
 * True for an `out` message of the protocol: a started count and entries that each answer one
 * call. A worker that sends anything else is not ours (the pool stops it).
 */
export function isOutMessage(message: { t: 'out' }): message is Out {
  const { started, out } = message as Partial<Out>;
  return typeof started === 'number' && Array.isArray(out) && out.every(isEntry);
}

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

/**
 * Settle the calls an `out` message answers on `handle`; the clock hears of answers to calls no
 * longer held (a cancelled call that stopped in time).
 */
export function deliverResults(
  handle: WorkerHandle,
  message: Out,
  calls: CallLedger,
  clock: { answered(id: number): void },
): void {
  handle.started.reported(message.started);
  for (const entry of message.out) {
    // As the worker wrote it (and isOutMessage read it): a result, else an error, else a delta.
    const { result, error } = entry as { result?: CallResult; error?: SerializedError };
    const answer = result !== undefined || error !== undefined;
    const call = calls.get(entry.id);
    if (!call || call.worker !== handle) {
      if (answer) clock.answered(entry.id);
      continue;
    }
    if (!answer) {
      if (call.options.onDelta) notify(call.options.onDelta, (entry as { delta: unknown }).delta, call.toolCall.id);
      continue;
    }
    handle.calls.delete(entry.id);
    if (result) calls.settle(call, undefined, { ...result, toolCallId: call.toolCall.id, name: call.toolCall.name });
    else calls.settle(call, reviveError(error as SerializedError));
  }
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
