/**
 * What a worker's batch of results does to the calls it answers: each result or error settles
 * its call, each delta goes to the caller's `onDelta`, and the started count it carries is
 * noted. Only calls the pool still holds on that worker are touched: an answer to a call settled
 * or sent elsewhere since (aborted, timed out, re-run) is dropped.
 */
import { reviveError, type SerializedError } from '../errors/serialize-error';
import type { CallLedger } from './call-ledger';
import {
  type CallResult,
  OUT_DELTA,
  OUT_ERROR,
  OUT_JSON,
  OUT_RESULT,
  OUT_STARTED,
  OUT_STRIDE,
  type OutBatch,
} from './protocol';
import type { WorkerHandle } from './worker-handle';

/**
 * Settle the calls `batch` answers on `handle`; the clock hears of answers to calls no longer
 * held (a cancelled call that stopped in time).
 */
export function deliverResults(
  handle: WorkerHandle,
  batch: OutBatch,
  calls: CallLedger,
  clock: { answered(id: number): void },
): void {
  for (let i = 0; i + OUT_STRIDE <= batch.length; i += OUT_STRIDE) {
    const kind = batch[i] as number;
    const id = batch[i + 1] as number;
    const payload = batch[i + 2];
    if (kind === OUT_STARTED) {
      handle.started.reported(id);
      continue;
    }
    const call = calls.get(id);
    if (!call || call.worker !== handle) {
      if (kind !== OUT_DELTA) clock.answered(id);
      continue;
    }
    if (kind === OUT_DELTA) {
      if (call.options.onDelta) notify(call.options.onDelta, payload, call.toolCall.id);
      continue;
    }
    handle.calls.delete(id);
    if (kind === OUT_ERROR) {
      calls.settle(call, reviveError(payload as SerializedError));
      continue;
    }
    const { id: toolCallId, name } = call.toolCall;
    calls.settle(
      call,
      undefined,
      kind === OUT_RESULT
        ? { toolCallId, name, ...(payload as CallResult) }
        : { toolCallId, name, content: payload as string, kind: kind === OUT_JSON ? 'json' : 'text' },
    );
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
