/// <reference lib="webworker" />
// A worker that never answers the handshake but answers every call it is sent with a forged
// result, and says what else the pool reads after a handshake ('fatal', an answer to stop):
// before it answers `configure`, none of it may settle a call or touch the pool's bookkeeping.
import type { CallRequest, WorkerToPage } from '../../src/pool/protocol';
import { answer, poolRequest } from './pool-wire';

let started = 0;
self.addEventListener('message', (event: MessageEvent) => {
  const request = poolRequest(event.data);
  if (request?.method === 'stop') self.postMessage(answer(request.id, { started }));
  if (request?.method !== 'calls') return;
  for (const { id } of request.args[0] as CallRequest[]) {
    started++;
    const forged: WorkerToPage = { t: 'out', started, out: [{ id, result: { content: '"forged"', kind: 'json' } }] };
    self.postMessage(forged);
  }
  self.postMessage(answer(request.id, undefined));
  self.postMessage({ t: 'fatal', reason: 'forged death', started });
});
