/// <reference lib="webworker" />
// Speaks the pool protocol's handshake, as a tool worker does, then answers every batch of calls
// with something that is not a message of the protocol, chosen by the worker's name: what a broken
// or foreign worker might send.
import { type CallRequest, PROTOCOL_VERSION } from '../../src/pool/protocol';
import { answer, poolRequest } from './pool-wire';

const replies: Record<string, (id: number) => unknown> = {
  string: (id) => `1${id}:99:not that long`,
  'null-entry': (id) => ({ t: 'out', started: 1, out: [null, { id, result: { content: 'late', kind: 'text' } }] }),
  'text-started': (id) => ({ t: 'out', started: '1', out: [{ id, result: { content: 'x', kind: 'text' } }] }),
  'bare-error': (id) => ({ t: 'out', started: 1, out: [{ id, error: 'not a serialized error' }] }),
};

/** Results of the protocol's shape whose fields are not what they must be: each fails its call alone. */
const badResults: Record<string, unknown> = {
  // What a worker whose own check code in its realm undid would send: the page would fetch it.
  'media-url': {
    content: 'a chart',
    kind: 'text',
    media: [{ type: 'image', data: 'https://example.com/x.png', mediaType: 'image/png' }],
  },
  'media-text': { content: 'x', kind: 'text', media: [{ type: 'text', text: 'smuggled' }] },
  'bad-kind': { content: '1', kind: 'binary' },
  'bad-update': { content: 'x', kind: 'text', update: 'not an object' },
  // Said to be JSON and is not: its state update must not be merged for a call that failed.
  'json-not-json': { content: '{"half', kind: 'json', update: { leaked: true } },
};
for (const [name, result] of Object.entries(badResults))
  replies[name] = (id) => ({ t: 'out', started: 1, out: [{ id, result }] });

/** 30 levels of { a: x, b: x }: under a kilobyte to clone, about 500 GB as JSON. */
function shared(): unknown {
  let x: unknown = { s: 'x'.repeat(100) };
  for (let i = 0; i < 30; i++) x = { a: x, b: x };
  return x;
}
const floods: Record<string, (id: number) => unknown[]> = {
  'shared-artifact': (id) => [{ id, result: { content: 'x', kind: 'text', artifact: shared() } }],
  'shared-update': (id) => [{ id, result: { content: 'x', kind: 'text', update: { big: shared() } } }],
  'shared-delta': (id) => [
    { id, delta: shared() },
    { id, result: { content: 'done', kind: 'text' } },
  ],
  'big-error': (id) => [{ id, error: { $error: 1, name: 'Error', message: 'x'.repeat(9 * 2 ** 20) } }],
  'map-artifact': (id) => [{ id, result: { content: 'x', kind: 'text', artifact: new Map([['a', 1]]) } }],
};
for (const [name, out] of Object.entries(floods)) replies[name] = (id) => ({ t: 'out', started: 1, out: out(id) });

/** Other messages of the protocol, in words the pool cannot read. */
replies['net-garbled'] = () => ({ t: 'net?', ask: 'first', url: { href: 'https://example.com' }, api: 'fetch' });
replies['fatal-object'] = () => ({ t: 'fatal', reason: { toString: 'x'.repeat(1e6) }, started: 1 });
/** The ready message each worker says, by its name: 'bad-ready' names its tools as a string. */
const ready = self.name === 'bad-ready' ? { names: 'add', idempotent: [] } : { names: ['add'], idempotent: [] };

self.onmessage = (event: MessageEvent) => {
  const request = poolRequest(event.data);
  if (request?.method === 'configure') {
    self.postMessage(answer(request.id, { version: PROTOCOL_VERSION, ...ready, timeouts: {} }));
  } else if (request?.method === 'calls') {
    self.postMessage((replies[self.name] ?? replies.string)?.((request.args[0] as CallRequest[])[0]?.id as number));
  }
};
