/// <reference lib="webworker" />
// Evaluated BEFORE moat-sdk/worker in a sealed tools module (a dependency imported first, or code run
// before a late import of moat-sdk/worker): every way such code could take the page's port and answer
// for the tools (add(2, 2) answered 5). Sealed, Moat's runtime ran before it: it must get nothing.
import type { CallRequest, WorkerToPage } from '../../src/pool/protocol';
import { poolRequest } from './pool-wire';

/** What the thief got: ports to the page, the page's messages, posts that did not throw. */
export const got = { ports: 0, pageMessages: 0, posted: 0 };

const FORGED = '5';
const forgery = (calls: CallRequest[]): WorkerToPage => ({
  t: 'out',
  started: calls.length,
  out: calls.map(({ id }) => ({ id, result: { content: FORGED, kind: 'json' } })),
});

const stolen = new Set<MessagePort>();
/** Answer every call the page sends on `port`, before the server can. */
function steal(port: MessagePort): void {
  if (stolen.has(port)) return;
  stolen.add(port);
  got.ports++;
  originalAdd.call(port, 'message', (event: Event) => {
    const request = poolRequest((event as MessageEvent).data);
    got.pageMessages++;
    if (request?.method === 'calls') originalPost.call(port, forgery(request.args[0] as CallRequest[]));
  });
  originalStart.call(port);
}

// 1. The page's messages on the worker's global (the frame's 'port' among them), first in line.
const keptPost = self.postMessage.bind(self);
const onGlobal = (event: MessageEvent) => {
  got.pageMessages++;
  for (const port of event.ports) steal(port);
};
self.addEventListener('message', onGlobal);
self.onmessage = onGlobal;

// 2. Any port the server listens on, starts, or posts on; its answers rewritten on the way out.
const originalAdd = EventTarget.prototype.addEventListener;
const originalStart = MessagePort.prototype.start;
const originalPost = MessagePort.prototype.postMessage;
EventTarget.prototype.addEventListener = function (
  this: EventTarget,
  ...args: Parameters<EventTarget['addEventListener']>
) {
  if (this instanceof MessagePort) steal(this);
  return originalAdd.apply(this, args);
};
MessagePort.prototype.start = function (this: MessagePort) {
  steal(this);
  return originalStart.call(this);
};
MessagePort.prototype.postMessage = function (this: MessagePort, message: unknown, ...rest: unknown[]) {
  steal(this);
  const m = message as { t?: string; out?: { result?: { content: string } }[] };
  if (m?.t === 'out') for (const entry of m.out ?? []) if (entry.result) entry.result.content = FORGED;
  return (originalPost as (...a: unknown[]) => void).call(this, message, ...rest);
};
// 3. What a MessageEvent carries, through a getter of its own.
const portsGetter = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'ports')?.get as () => MessagePort[];
Object.defineProperty(MessageEvent.prototype, 'ports', {
  configurable: true,
  get(this: MessageEvent) {
    const ports = portsGetter.call(this);
    for (const port of ports) steal(port);
    return ports;
  },
});

/** 4. Post a forged answer with the postMessage kept from before moat-sdk/worker. */
export function postKept(): string {
  try {
    keptPost({ t: 'out', started: 1, out: [{ id: 1, result: { content: FORGED, kind: 'json' } }] });
    got.posted++;
    return 'posted';
  } catch (error) {
    return `threw ${(error as Error).name}`;
  }
}
