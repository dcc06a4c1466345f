/**
 * The pool's network policy as its workers get it, and the page's answers to the questions a
 * policy function makes them ask.
 */

import type { NetworkPolicy } from './pool-options';
import type { NetworkPolicyWire, WorkerToPage } from './protocol';
import type { WorkerHandle } from './worker-handle';

/** The policy for a worker's `hello`: a mode. */
export function networkWire(policy: NetworkPolicy): NetworkPolicyWire {
  return policy === 'allow' || policy === 'deny' ? { mode: policy } : { mode: 'ask' };
}

/** Answer a worker's `net?`: the policy function's verdict (anything but `true`, or a throw, refuses). */
export function answerNetwork(
  policy: NetworkPolicy,
  handle: WorkerHandle,
  message: Extract<WorkerToPage, { t: 'net?' }>,
): void {
  let allow = false;
  if (typeof policy === 'function') {
    try {
      allow = policy(message.url, message.api) === true;
    } catch {
      allow = false;
    }
  } else {
    allow = policy === 'allow';
  }
  handle.post({ t: 'net', ask: message.ask, allow });
}
