/// <reference lib="webworker" />
// Answers every message with the same data: the raw postMessage anchor.
self.onmessage = (event: MessageEvent) => self.postMessage(event.data);
self.postMessage('ready');
