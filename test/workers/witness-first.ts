/// <reference lib="webworker" />
// Evaluated before moat-sdk/worker in witness.worker.ts: its listener comes first, so it sees
// every request the page sends (a plain worker keeps what ran before moat-sdk/worker: documented).
import type { CallRequest } from '../../src/pool/protocol';
import { poolRequest } from './pool-wire';

/** Each batch of calls the page sent, in order: per call, the state it carried (0 when none). */
export const batches: unknown[][] = [];

self.addEventListener('message', (event) => {
  const request = poolRequest(event.data);
  if (request?.method === 'calls')
    batches.push((request.args[0] as CallRequest[]).map((c) => ('state' in c ? { state: c.state } : 0)));
});
