/// <reference lib="webworker" />
// The pool protocol's floor: what a worker must do for one call without shared memory, and no
// more. It takes the same `calls` message, checks the arguments with the same zod/mini schema
// as the pools' `noop` tool, and answers with the same `out` message (the JSON result and the
// started count). No tool server, no page-side pool: the anchor says what the wire itself costs.
import * as z from 'zod/mini';
import { safeParse } from 'zod/v4/core';
import type { CallRequest, WorkerToPage } from '../../src/pool/protocol';

/**
 * The one message this floor takes (bench/browser/pool.ts posts it): the pool itself sends its
 * calls by Comlink now, so the hand-made shape is the bench's own, not the protocol's.
 */
type CallsMessage = { t: 'calls'; calls: CallRequest[] };

const input = z.object({ i: z.number() });
let started = 0;

self.onmessage = (event: MessageEvent<CallsMessage>) => {
  const call = event.data.calls[0];
  if (!call) return;
  started++;
  const parsed = safeParse(input, call.args);
  if (!parsed.success) throw new Error('bad arguments');
  const out: WorkerToPage = {
    t: 'out',
    started,
    out: [{ id: call.id, result: { content: JSON.stringify(parsed.data.i), kind: 'json' } }],
  };
  self.postMessage(out);
};
self.postMessage('ready');
