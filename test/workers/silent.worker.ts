/// <reference lib="webworker" />
// A worker that starts but never calls serveTools: the pool's handshake must time out.
self.postMessage('hello, but no tools');
