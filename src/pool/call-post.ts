/**
 * How one tick's calls leave for a worker: handed over through the doorbell when the worker is
 * parked, or else in one message; when one of them cannot be cloned (a function in its
 * arguments, say), the others go one message each and it is reported.
 */
import type { CallBatch, CallRequest } from './protocol';

/** Calls as one flat `CallBatch`. */
export function encodeCalls(requests: readonly CallRequest[]): CallBatch {
  // Built by push, never `new Array(n)`: a holey array is cloned as a sparse one, property by
  // property, on both sides of postMessage.
  const batch: CallBatch = [];
  for (const r of requests)
    batch.push(
      r.id,
      r.toolCallId,
      r.name,
      r.args,
      r.state === undefined && r.context === undefined && r.resultFormat === undefined
        ? 0
        : { state: r.state, context: r.context, resultFormat: r.resultFormat },
    );
  return batch;
}

export interface PostedCalls {
  /** The calls on their way, in the order the worker takes them. */
  sent: CallRequest[];
  /** True when they went through the doorbell (no message). */
  rung: boolean;
  /** The calls that could not be sent, each with the error posting it threw. */
  unsendable: [CallRequest, unknown][];
}

/**
 * Send `calls`: through the doorbell when it takes them (it may say no, or throw: then by
 * message), or with `post`, which throws when a batch cannot be cloned.
 */
export function postCalls(
  calls: CallRequest[],
  post: (batch: CallBatch) => void,
  doorbell?: { ring(calls: readonly CallRequest[]): boolean },
): PostedCalls {
  let rung = false;
  try {
    rung = doorbell?.ring(calls) ?? false;
  } catch {
    // Whatever went wrong, the calls still go, by message.
  }
  if (rung) return { sent: calls, rung, unsendable: [] };
  try {
    post(encodeCalls(calls));
    return { sent: calls, rung, unsendable: [] };
  } catch {
    // One of them holds something that cannot be cloned: the others go one by one.
  }
  const sent: CallRequest[] = [];
  const unsendable: [CallRequest, unknown][] = [];
  for (const request of calls) {
    try {
      post(encodeCalls([request]));
      sent.push(request);
    } catch (error) {
      unsendable.push([request, error]);
    }
  }
  return { sent, rung, unsendable };
}
