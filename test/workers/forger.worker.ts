/// <reference lib="webworker" />
// A worker that never answers the handshake but answers every call it is sent with a forged
// result, and says what else the pool reads after a handshake ('fatal', 'stopped'): before
// `ready`, none of it may settle a call or touch the pool's bookkeeping.
import type { PageToWorker, WorkerToPage } from '../../src/pool/protocol';

let started = 0;
self.addEventListener('message', (event: MessageEvent<PageToWorker>) => {
  const message = event.data;
  if (message?.t !== 'calls') return;
  for (const { id } of message.calls) {
    started++;
    const forged: WorkerToPage = { t: 'out', started, out: [{ id, result: { content: '"forged"', kind: 'json' } }] };
    self.postMessage(forged);
  }
  self.postMessage({ t: 'stopped', started });
  self.postMessage({ t: 'fatal', reason: 'forged death', started });
});
