// The MCP client's worker is hostile input (it runs a client of a remote server, and whatever
// that client depends on): here one in a sealed frame, as the page starts it, sends Comlink's
// requests (GET, SET, APPLY, CONSTRUCT by paths through `constructor`, ENDPOINT), a `proxy`
// answer and a thrown value with an own `__proto__` key on every port it can reach. The page
// exposes nothing, so none of it runs or changes anything on the page; the connection ends with a
// protocol failure, and the next connection works.

import { afterEach, describe, expect, it } from 'vitest';
import { COMLINK_ATTACKS } from '../../test/comlink-attacks';
import { sleep } from '../../test/sleep';
import { sealedFrameCsp } from '../frame/framed-worker';
import { SandboxedFrame } from '../frame/sandboxed-frame';
import { Connection } from './connection';
import type { WireFailure } from './protocol';

const frames: SandboxedFrame[] = [];
afterEach(() => {
  for (const frame of frames.splice(0)) frame.close();
  delete (globalThis as { pwned?: unknown }).pwned;
  delete (Object.prototype as { polluted?: unknown }).polluted;
});

/** Each attack: what the worker posts, made afresh for each port, given the page's request. */
const ATTACKS = COMLINK_ATTACKS.map(([name, message]): [string, string] => [
  name,
  `(request) => { const made = ${message}; return Array.isArray(made) ? made : [made]; }`,
]);

/**
 * The client worker's module (text: it stands alone). It answers the page's requests as the
 * client would (one tool, `echo`), unless it was made with an attack: then, at the page's first
 * request, it posts the attack on its own scope (its frame), on any port the request moved here
 * (a `Comlink.proxy` the page passed would be one) and last on its port to the page, following
 * any port handed back with an APPLY of what it stands for and a SET through its prototype.
 */
function hostileClient(attack: ((request: { id: string }) => [unknown, Transferable[]?]) | null): void {
  const follow = (event: MessageEvent) => {
    const answer = event.data as { value?: unknown } | null;
    const port = answer?.value instanceof MessagePort ? answer.value : event.ports[0];
    if (!port) return;
    port.postMessage({ id: 'b', type: 'APPLY', path: [], argumentList: [] });
    port.postMessage({
      id: 'c',
      type: 'SET',
      path: ['constructor', 'prototype', 'polluted'],
      value: { type: 'RAW', value: true },
    });
  };
  (globalThis as { follow?: unknown }).follow = follow;
  addEventListener('message', (event: MessageEvent) => {
    const port = event.ports[0];
    if (event.data !== 'port' || !port) return;
    port.onmessage = async (e: MessageEvent) => {
      const request = e.data as { id: string; type: string; path: string[] };
      if (request?.type !== 'APPLY') return;
      if (attack) {
        try {
          self.postMessage(attack(request)[0]);
        } catch {}
        for (const target of [...e.ports, port]) {
          target.addEventListener('message', follow);
          target.start();
          const [message, transfer] = attack(request);
          target.postMessage(message, transfer ?? []);
          await new Promise((r) => setTimeout(r, 50));
        }
        return;
      }
      const answers: Record<string, unknown> = {
        connect: { t: 'connected' },
        listTools: { t: 'tools', tools: [{ name: 'echo', inputSchema: { type: 'object' } }] },
        callTool: { t: 'result', result: { content: [{ type: 'text', text: 'ok' }] } },
        close: { t: 'closed' },
      };
      port.postMessage({ id: request.id, type: 'RAW', value: answers[request.path[0] ?? ''] });
    };
  });
}

/** A client worker in a sealed frame, as startClientFrame makes one, running `hostileClient(attack)`. */
function clientOf(attack: string | null): Connection {
  const frame = new SandboxedFrame({ csp: sealedFrameCsp(['http://127.0.0.1:9']), title: 'Hostile MCP client' });
  frames.push(frame);
  const text = `const follow = (...a) => globalThis.follow(...a);\n(${hostileClient.toString()})(${attack});`;
  frame.load({ modules: [{ url: 'moat:hostile-mcp-client', parts: [text] }], entry: 0 });
  const { port1, port2 } = new MessageChannel();
  frame.spawn(port2);
  return new Connection(port1, frame);
}

const failure = (f: WireFailure) => new Error(`${f.kind}: ${f.message}`);

function pageState() {
  return {
    pwned: (globalThis as { pwned?: unknown }).pwned,
    polluted: Object.hasOwn(Object.prototype, 'polluted'),
    fromObject: ({} as { polluted?: unknown }).polluted,
  };
}
const UNHARMED = { pwned: undefined, polluted: false, fromObject: undefined };

describe('a hostile MCP client worker sends Comlink messages on every port it can reach', () => {
  it('an honest one answers: the page connects, lists and calls', async () => {
    const connection = clientOf(null);
    await connection.connect('http://127.0.0.1:9/mcp', {}, { failure, timeoutMs: 20_000 });
    expect((await connection.list({ failure })).map((t) => t.name)).toEqual(['echo']);
    expect((await connection.call('echo', {}, { failure })).result).toEqual({
      content: [{ type: 'text', text: 'ok' }],
    });
  });

  it.each(ATTACKS)(
    '%s: runs nothing on the page; the connection ends with a protocol failure, the next one works',
    async (_, attack) => {
      const connection = clientOf(attack);
      const outcome = await connection.connect('http://127.0.0.1:9/mcp', {}, { failure, timeoutMs: 20_000 }).then(
        () => 'connected',
        (e: Error) => e.message,
      );
      expect(outcome).toMatch(/^protocol: its client sent a message the page cannot read/);
      // Let whatever else it posted land.
      await sleep(300);
      expect(pageState()).toEqual(UNHARMED);
      const next = clientOf(null);
      await next.connect('http://127.0.0.1:9/mcp', {}, { failure, timeoutMs: 20_000 });
      expect((await next.call('echo', {}, { failure })).result).toEqual({ content: [{ type: 'text', text: 'ok' }] });
    },
  );
});
