/// <reference lib="webworker" />
// A worker that never answers the handshake but answers every call it is sent with a forged
// result, as an array and packed, and says what else the pool reads after a handshake ('fatal',
// 'stopped'): before `ready`, none of it may settle a call or touch the pool's bookkeeping.
import { CALL_STRIDE, OUT_JSON, OUT_STARTED } from '../../src/pool/protocol';

let started = 0;
self.addEventListener('message', (event: MessageEvent) => {
  const batch = event.data;
  if (!Array.isArray(batch)) return;
  for (let i = 0; i + CALL_STRIDE <= batch.length; i += CALL_STRIDE) {
    const id = batch[i] as number;
    started++;
    self.postMessage([OUT_JSON, id, '"forged"', OUT_STARTED, started, 0]);
    self.postMessage(`${OUT_JSON}${id}:8:"forged"${OUT_STARTED}${started}:0:`);
  }
  self.postMessage({ t: 'stopped', started });
  self.postMessage({ t: 'fatal', reason: 'forged death', started });
});
