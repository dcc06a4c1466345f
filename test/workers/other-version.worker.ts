/// <reference lib="webworker" />
// A worker built against another version of the pool protocol: it answers configure with its own.
import { answer, poolRequest } from './pool-wire';

self.addEventListener('message', (event: MessageEvent) => {
  const request = poolRequest(event.data);
  if (request?.method === 'configure')
    self.postMessage(answer(request.id, { version: 0, names: ['add'], idempotent: [] }));
});
