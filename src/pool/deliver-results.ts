/**
 * What a worker's batch of results does to the calls it answers: each result or error settles
 * its call, each delta goes to the caller's `onDelta`, and the started count it carries is
 * noted. Only calls the pool still holds on that worker are touched: an answer to a call settled
 * or sent elsewhere since (aborted, timed out, re-run) is dropped.
 */
import { reviveError } from '../errors/serialize-error';
import type { CallLedger } from './call-ledger';
import type { WorkerToPage } from './protocol';
import type { WorkerHandle } from './worker-handle';

/**
 * Settle the calls an `out` message answers on `handle`; the clock hears of answers to calls no
 * longer held (a cancelled call that stopped in time).
 */
export function deliverResults(
  handle: WorkerHandle,
  message: Extract<WorkerToPage, { t: 'out' }>,
  calls: CallLedger,
  clock: { answered(id: number): void },
): void {
  handle.started.reported(message.started);
  for (const entry of message.out) {
    const call = calls.get(entry.id);
    if (!call || call.worker !== handle) {
      if (!('delta' in entry)) clock.answered(entry.id);
      continue;
    }
    if ('delta' in entry) {
      if (call.options.onDelta) notify(call.options.onDelta, entry.delta, call.toolCall.id);
      continue;
    }
    handle.calls.delete(entry.id);
    if ('error' in entry) calls.settle(call, reviveError(entry.error));
    else calls.settle(call, undefined, { toolCallId: call.toolCall.id, name: call.toolCall.name, ...entry.result });
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
