/// <reference lib="webworker" />
// A worker built against another version of the pool protocol: it answers hello with its own.
self.addEventListener('message', (event: MessageEvent) => {
  if (event.data?.t === 'hello') self.postMessage({ t: 'ready', version: 0, names: ['add'] });
});
