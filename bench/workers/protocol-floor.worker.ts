/// <reference lib="webworker" />
// The pool protocol's floor: what a worker must do for one call without shared memory, and no
// more. It takes the same CallBatch message, checks the arguments with the same zod/mini schema
// as the pools' `noop` tool, and answers with the same OutBatch (the JSON result and the started
// count). No tool server, no page-side pool: the anchor says what the wire itself costs.
import * as z from 'zod/mini';
import { safeParse } from 'zod/v4/core';
import { type CallBatch, OUT_JSON, OUT_STARTED } from '../../src/pool/protocol';

const input = z.object({ i: z.number() });
let started = 0;

self.onmessage = (event: MessageEvent<CallBatch>) => {
  const batch = event.data;
  started++;
  const parsed = safeParse(input, batch[3]);
  if (!parsed.success) throw new Error('bad arguments');
  self.postMessage([OUT_JSON, batch[0], JSON.stringify(parsed.data.i), OUT_STARTED, started, 0]);
};
self.postMessage('ready');
