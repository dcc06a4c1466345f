/**
 * How one tick's calls leave for a worker: in one message; when one of them cannot be cloned (a
 * function in its arguments, say), the others go one message each and it is reported.
 */
import type { CallRequest } from './protocol';

export interface PostedCalls {
  /** The calls on their way, in the order the worker takes them. */
  sent: CallRequest[];
  /** The calls that could not be sent, each with the error posting it threw. */
  unsendable: [CallRequest, unknown][];
}

/** Send `calls` with `post` (one batch, one message), which throws when a batch cannot be cloned. */
export function postCalls(calls: CallRequest[], post: (batch: CallRequest[]) => void): PostedCalls {
  try {
    post(calls);
    return { sent: calls, unsendable: [] };
  } catch {
    // One of them holds something that cannot be cloned: the others go one by one.
  }
  const sent: CallRequest[] = [];
  const unsendable: [CallRequest, unknown][] = [];
  for (const request of calls) {
    try {
      post([request]);
      sent.push(request);
    } catch (error) {
      unsendable.push([request, error]);
    }
  }
  return { sent, unsendable };
}
