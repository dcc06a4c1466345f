/// <reference lib="webworker" />
// Evaluated before moat/worker (store-scoped.worker.ts imports it first): it keeps the port the
// page serves the store on, as code in the tools' realm could, to ask for any namespace itself,
// past the scope the worker puts around each tool.
let storePort: MessagePort | undefined;

addEventListener('message', (event: MessageEvent) => {
  // A sealed worker's messages come over a port of its own (the frame's 'port' message); the
  // pool's hello on it carries the store's port.
  const pagePort = event.data === 'port' ? event.ports[0] : undefined;
  pagePort?.addEventListener('message', (e: MessageEvent) => {
    if ((e.data as { t?: string })?.t === 'hello' && e.ports[0]) storePort = e.ports[0];
  });
});

/** Ask the page's store for `namespace`/`key` over the stolen port: the answer as it comes. */
export function stealFromStore(namespace: string[], key: string): Promise<unknown> {
  const port = storePort;
  if (!port) return Promise.reject(new Error('no store port was seen'));
  const id = 1e9;
  return new Promise((resolve) => {
    const onAnswer = (e: MessageEvent) => {
      if ((e.data as { id?: number })?.id !== id) return;
      port.removeEventListener('message', onAnswer);
      resolve(e.data);
    };
    port.addEventListener('message', onAnswer);
    port.start();
    port.postMessage({ id, method: 'get', args: [namespace, key] });
  });
}
