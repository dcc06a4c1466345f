/// <reference lib="webworker" />
// Evaluated before moat-sdk/worker: pins the worker's own postMessage so that it cannot be replaced.
Object.defineProperty(self, 'postMessage', { value: self.postMessage, writable: false, configurable: false });
