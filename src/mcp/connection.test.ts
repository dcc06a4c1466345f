// The page's side of an MCP client's frame reads every message before use: what it cannot read
// fails what waits, at once, with a protocol failure, and ends the connection; nothing is thrown
// on the page.
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxedFrame } from '../frame/sandboxed-frame';
import { Connection, readFromWorker } from './connection';
import type { WireFailure } from './protocol';

const open: MessagePort[] = [];
afterEach(() => {
  for (const port of open.splice(0)) port.close();
});

/** A connection over a channel whose far end the test speaks for, and whether its frame was closed. */
function connection() {
  const { port1, port2 } = new MessageChannel();
  open.push(port1, port2);
  const frame = {
    closed: false,
    close() {
      this.closed = true;
    },
  };
  const made = new Connection(port1, frame as unknown as SandboxedFrame);
  return { made, far: port2, frame };
}
const failure = (f: WireFailure) => new Error(`${f.kind}: ${f.message}`);

describe('the MCP client frame, read as untrusted', () => {
  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'hello'],
    ['an unknown type', { t: 'exec', id: 1 }],
    ['a result that is not one', { t: 'result', id: 1, result: 5 }],
    ['progress that is not a number', { t: 'progress', id: 1, progress: 'lots' }],
    ['a failure of no known kind', { t: 'failed', id: 1, error: { kind: 'anything', message: 'x' } }],
    ['a tool list that is not one', { t: 'tools', id: 1, tools: [{ title: 'no name' }] }],
  ])('fails what waits at once when it sends %s, and ends the connection', async (_, reply) => {
    const { made, far, frame } = connection();
    far.onmessage = () => far.postMessage(reply);
    // Bounded: on old code the request waited for its time limit (or resolved with what it got).
    const asked = made.request({ t: 'list' }, { failure, timeoutMs: 2_000 });
    await expect(asked).rejects.toThrow(/^protocol: its client sent a message the page cannot read/);
    expect(frame.closed).toBe(true);
    await expect(made.request({ t: 'list' }, { failure })).rejects.toThrow(/cannot read/);
  });

  it('reads the messages of the protocol as they are', () => {
    for (const message of [
      { t: 'changed' },
      { t: 'connected', id: 1 },
      { t: 'progress', id: 1, progress: 3, total: 10, message: 'half' },
      { t: 'failed', id: 1, error: { kind: 'http', message: 'no', status: 500 } },
      { t: 'tools', id: 1, tools: [{ name: 'a', inputSchema: {} }] },
      { t: 'result', id: 1, result: { content: [{ type: 'text', text: 'ok' }] } },
    ])
      expect(readFromWorker(message)).toBe(message);
  });
});
