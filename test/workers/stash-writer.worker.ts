/// <reference lib="webworker" />
// Writes results into a result stash as fast as it can, clearing it whenever it is full, until
// the page locks it to read: the other side of the stash's handshake, for the race test.
import { OUT_TEXT } from '../../src/pool/protocol';
import { clearStash, stashOf, stashResult } from '../../src/pool/result-stash';

self.onmessage = (event: MessageEvent<SharedArrayBuffer>) => {
  const stash = stashOf(event.data);
  let written = 0;
  // Delivered while the loop below runs: the page picks its moment once writing is under way.
  self.postMessage('writing');
  for (let id = 0; ; id++) {
    const text = `r${id}:${'é'.repeat(id % 37)}`;
    if (stashResult(stash, OUT_TEXT, id, text)) {
      written++;
      continue;
    }
    // Full, or locked: a locked stash is not cleared (the page is reading), so the next write
    // fails again and the worker is done.
    clearStash(stash);
    if (!stashResult(stash, OUT_TEXT, id, text)) break;
    written++;
  }
  self.postMessage(written);
};
self.postMessage('ready');
