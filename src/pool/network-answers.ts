/**
 * The pool's network policy as its workers get it, and the page's answers to the questions a
 * policy function makes them ask (through shared memory when there is some, else by message).
 */

import type { NetworkPolicy } from './pool-options';
import type { NetworkPolicyWire, WorkerToPage } from './protocol';
import type { WorkerHandle } from './worker-handle';

/** The policy for a worker's `hello`: a mode, and where synchronous answers go. */
export function networkWire(policy: NetworkPolicy, shared: boolean): NetworkPolicyWire {
  if (policy === 'allow' || policy === 'deny') return { mode: policy };
  return shared ? { mode: 'ask', answers: new SharedArrayBuffer(4) } : { mode: 'ask' };
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
  const answers = handle.networkAnswers;
  if (message.slot !== undefined && answers) {
    const view = new Int32Array(answers);
    Atomics.store(view, message.slot, allow ? 1 : 2);
    Atomics.notify(view, message.slot);
  } else {
    handle.post({ t: 'net', ask: message.ask, allow });
  }
}
