/**
 * How one tick's calls leave for a worker: in one message; when one of them cannot be cloned (a
 * function in its arguments, say), the others go one message each and it is reported.
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
  /** The calls that could not be sent, each with the error posting it threw. */
  unsendable: [CallRequest, unknown][];
}

/** Send `calls` with `post`, which throws when a batch cannot be cloned. */
export function postCalls(calls: CallRequest[], post: (batch: CallBatch) => void): PostedCalls {
  try {
    post(encodeCalls(calls));
    return { sent: calls, unsendable: [] };
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
  return { sent, unsendable };
}
