/// <reference lib="webworker" />
// Speaks the pool protocol's handshake, as a tool worker does, then answers every calls message
// with something that is not a message of the protocol, chosen by the worker's name: what a broken
// or foreign worker might send.
import { PROTOCOL_VERSION } from '../../src/pool/protocol';

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
};
for (const [name, result] of Object.entries(badResults))
  replies[name] = (id) => ({ t: 'out', started: 1, out: [{ id, result }] });

self.onmessage = (event: MessageEvent) => {
  const message = event.data;
  if (message?.t === 'hello') {
    self.postMessage({ t: 'ready', version: PROTOCOL_VERSION, names: ['add'], idempotent: [], timeouts: {} });
  } else if (message?.t === 'calls') {
    self.postMessage((replies[self.name] ?? replies.string)?.(message.calls[0]?.id));
  }
};
