/// <reference lib="webworker" />
// The smallest module worker: says it is up. The cold-start anchor.
self.postMessage('ready');
