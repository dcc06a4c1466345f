// The page's side of an MCP client's frame reads every answer and message before use: what it
// cannot read fails what waits, at once, with a protocol failure, and ends the connection;
// nothing is thrown on the page.
import { afterEach, describe, expect, it } from 'vitest';
import type { SandboxedFrame } from '../frame/sandboxed-frame';
import { Connection, readAnswer } from './connection';
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
  it.each<[string, 'answer' | 'unasked', unknown]>([
    ['null', 'unasked', null],
    ['a string', 'unasked', 'hello'],
    ['an unknown type', 'unasked', { t: 'exec', id: 1 }],
    ['progress that is not a number', 'unasked', { t: 'progress', call: 1, progress: 'lots' }],
    ['an answer that is not one', 'answer', 5],
    ['a result that is not one', 'answer', { t: 'result', result: 5 }],
    ['a failure of no known kind', 'answer', { t: 'failed', error: { kind: 'anything', message: 'x' } }],
    ['a tool list that is not one', 'answer', { t: 'tools', tools: [{ title: 'no name' }] }],
    ['an answer to another request', 'answer', { t: 'closed' }],
  ])('fails what waits at once when it sends %s, and ends the connection', async (_, how, reply) => {
    const { made, far, frame } = connection();
    far.onmessage = ({ data }) =>
      far.postMessage(how === 'answer' ? { id: (data as { id: string }).id, type: 'RAW', value: reply } : reply);
    // Bounded: on old code the request waited for its time limit (or resolved with what it got).
    const asked = made.list({ failure, timeoutMs: 2_000 });
    await expect(asked).rejects.toThrow(/^protocol: its client sent a message the page cannot read/);
    expect(frame.closed).toBe(true);
    await expect(made.list({ failure })).rejects.toThrow(/cannot read/);
  });

  it('reads the answers of the protocol as they are', () => {
    for (const [answer, expected] of [
      [{ t: 'connected' }, 'connected'],
      [{ t: 'failed', error: { kind: 'http', message: 'no', status: 500 } }, 'tools'],
      [{ t: 'tools', tools: [{ name: 'a', inputSchema: {} }] }, 'tools'],
      [{ t: 'result', result: { content: [{ type: 'text', text: 'ok' }] } }, 'result'],
    ] as const)
      expect(readAnswer(answer, expected)).toBe(answer);
  });

  it("passes a call's progress to it, and a change of the tool list", async () => {
    const { made, far } = connection();
    const progress: unknown[] = [];
    let changed = 0;
    made.onChanged = () => changed++;
    far.onmessage = ({ data }) => {
      const { id, argumentList } = data as { id: string; argumentList: { value: unknown }[] };
      const call = argumentList[0]?.value;
      far.postMessage({ t: 'progress', call, progress: 3, total: 10, message: 'half' });
      far.postMessage({ t: 'changed' });
      far.postMessage({ id, type: 'RAW', value: { t: 'result', result: { content: [] } } });
    };
    const answer = await made.call('echo', {}, { failure, progress: (delta) => progress.push(delta) });
    expect(answer.result).toEqual({ content: [] });
    expect(progress).toEqual([{ progress: 3, total: 10, message: 'half' }]);
    expect(changed).toBe(1);
  });
});
