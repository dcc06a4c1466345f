/// <reference lib="webworker" />
// Speaks the pool protocol's handshake and counts the calls it starts, as a tool worker does, then
// answers every call batch with a string the pool cannot read as packed results: what a broken or
// foreign worker might send.
import { PROTOCOL_VERSION, type WorkerConfig } from '../../src/pool/protocol';

let started: Int32Array | undefined;
self.onmessage = (event: MessageEvent) => {
  const message = event.data;
  if (message?.t === 'hello') {
    const config = message.config as WorkerConfig;
    if (config.started) started = new Int32Array(config.started);
    self.postMessage({ t: 'ready', version: PROTOCOL_VERSION, names: ['add'], idempotent: [], timeouts: {} });
  } else if (Array.isArray(message)) {
    if (started) Atomics.add(started, 0, 1);
    self.postMessage(`1${message[0]}:99:not that long`);
  }
};
