/// <reference lib="webworker" />
// Speaks the pool protocol's handshake, as a tool worker does, then answers every calls message
// with a string, not a message of the protocol: what a broken or foreign worker might send.
import { PROTOCOL_VERSION } from '../../src/pool/protocol';

self.onmessage = (event: MessageEvent) => {
  const message = event.data;
  if (message?.t === 'hello') {
    self.postMessage({ t: 'ready', version: PROTOCOL_VERSION, names: ['add'], idempotent: [], timeouts: {} });
  } else if (message?.t === 'calls') {
    self.postMessage(`1${message.calls[0]?.id}:99:not that long`);
  }
};
