// A script is hostile, and so is its realm once it has run: it sends Comlink's requests (GET,
// SET, APPLY, CONSTRUCT by paths through `constructor`, ENDPOINT), a `proxy` answer and a thrown
// value with an own `__proto__` key on every port it can reach. The page exposes nothing, so
// none of it runs or changes anything on the page, and the next run works.

import { afterEach, describe, expect, it } from 'vitest';
import { COMLINK_ATTACKS } from '../../test/comlink-attacks';
import { sleep } from '../../test/sleep';
import { SandboxCrashedError } from '../errors/sandbox-crashed-error';
import { CodeSandbox, createCodeSandbox } from './code-sandbox';

let sandbox: CodeSandbox | undefined;
afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
  delete (globalThis as { pwned?: unknown }).pwned;
  delete (Object.prototype as { polluted?: unknown }).polluted;
});

const ATTACKS = COMLINK_ATTACKS;

/**
 * The script's attack, given its ports: each message is posted on the worker's own scope (its
 * frame) and on every one of them, the run's own last. Whatever comes back is followed as Comlink would be: a port
 * handed over (a proxy, an ENDPOINT) is sent an APPLY of what it stands for and a SET through its
 * prototype. The script then waits a few turns for answers to land.
 */
const attack = (message: string) => `
const follow = (event) => {
  const answer = event.data;
  const port = answer && answer.value instanceof MessagePort ? answer.value : event.ports && event.ports[0];
  if (!port) return;
  port.postMessage({ id: 'b', type: 'APPLY', path: [], argumentList: [] });
  port.postMessage({ id: 'c', type: 'SET', path: ['constructor', 'prototype', 'polluted'], value: { type: 'RAW', value: true } });
};
try { self.postMessage(${message.includes('request.id') ? '"no request here"' : message}); } catch {}
// The run's own port last: a message the page cannot read there ends the run.
for (const port of [...ports].reverse()) {
  port.addEventListener('message', follow);
  port.start();
  const made = ${message};
  if (Array.isArray(made)) port.postMessage(...made);
  else port.postMessage(made);
  for (let i = 0; i < 10; i++) await new Promise((r) => setTimeout(r, 5));
}
'attacked'`;

/**
 * A runtime a script has taken over: the script is handed the run's ports and the page's request
 * (what a script that broke the real runtime would hold), then runs as the runtime would run it.
 * A script that attacks nothing answers honestly. Sent as text, so the function stands alone.
 */
function takenOverRuntime(): void {
  const scope = self as unknown as { onmessage: ((event: MessageEvent) => void) | null };
  scope.onmessage = (event) => {
    scope.onmessage = null;
    const port = event.ports[0] as MessagePort;
    port.postMessage({ t: 'ready' });
    port.onmessage = async (e: MessageEvent) => {
      const request = e.data;
      if (request?.type !== 'APPLY' || request.path?.[0] !== 'run') return;
      const given = globalThis as unknown as { ports: MessagePort[]; request: unknown };
      // With any port the page's request moved here (a `Comlink.proxy` it passed would be one).
      given.ports = [port, ...e.ports];
      given.request = request;
      // biome-ignore lint/security/noGlobalEval: this worker runs what the test wrote, as the runtime would
      const evaluate = eval;
      const value = await evaluate(request.argumentList[0].value.code);
      port.postMessage({ id: request.id, type: 'RAW', value: { t: 'done', value: JSON.stringify(value) } });
    };
  };
}

/** The page as an attack would leave it, if anything of it had run. */
function pageState() {
  return {
    pwned: (globalThis as { pwned?: unknown }).pwned,
    polluted: Object.hasOwn(Object.prototype, 'polluted'),
    fromObject: ({} as { polluted?: unknown }).polluted,
  };
}
const UNHARMED = { pwned: undefined, polluted: false, fromObject: undefined };

describe('a hostile script sends Comlink messages on every port it can reach', () => {
  it.each(ATTACKS)(
    'with its runtime taken over (the run port in hand): %s runs nothing on the page; the run ends, the next works',
    async (_, message) => {
      sandbox ??= new CodeSandbox({ timeoutMs: 60_000 }, `(${takenOverRuntime.toString()})()`);
      const outcome = await Promise.race([
        sandbox.run(attack(message)).then(
          (r) => r.value,
          (e: unknown) => e,
        ),
        sleep(15_000).then(() => 'still waiting'),
      ]);
      // A request or an answer the page cannot take ends the run as a message it cannot read.
      expect(outcome).toBeInstanceOf(SandboxCrashedError);
      // Let whatever else was posted land.
      await sleep(150);
      expect(pageState()).toEqual(UNHARMED);
      expect((await sandbox.run('2 + 2')).value).toBe(4);
    },
  );

  it('with the real runtime: the script reaches no port to the page, its messages go nowhere, the next run works', async () => {
    sandbox = createCodeSandbox();
    // Every hook a script could set on the realm to be handed the runtime's port, then the attacks
    // on each port it got, on its own scope, and through what the runtime offers (console, tools).
    const hooks = `
const ports = [];
const grab = (p) => { if (p instanceof MessagePort && !ports.includes(p)) ports.push(p); };
const post = MessagePort.prototype.postMessage;
MessagePort.prototype.postMessage = function (...a) { grab(this); return post.apply(this, a); };
const add = EventTarget.prototype.addEventListener;
EventTarget.prototype.addEventListener = function (...a) { grab(this); return add.apply(this, a); };
const targetOf = Object.getOwnPropertyDescriptor(Event.prototype, 'target').get;
for (const key of ['data', 'ports', 'target', 'currentTarget']) {
  const get = Object.getOwnPropertyDescriptor(MessageEvent.prototype, key)?.get
    ?? Object.getOwnPropertyDescriptor(Event.prototype, key)?.get;
  Object.defineProperty(MessageEvent.prototype, key, { configurable: true, get() {
    grab(targetOf.call(this));
    const v = get.call(this);
    grab(v);
    if (Array.isArray(v)) v.forEach(grab);
    return v;
  } });
}
const then = Promise.prototype.then;
Promise.prototype.then = function (...a) { return then.apply(this, a); };
for (const m of [${ATTACKS.slice(0, 6)
      .map(([, m]) => m)
      .join(', ')}]) {
  try { self.postMessage(m); } catch {}
  console.log(m);
  await tools.echo(m).catch(() => {});
}
`;
    const calls: unknown[] = [];
    const result = await sandbox.run(`${hooks}; ${attack(ATTACKS[1]?.[1] ?? '')}; ports.length`, {
      tools: {
        names: ['echo'],
        call: async (_, args) => {
          calls.push(args);
          return args;
        },
      },
    });
    expect(result.value).toBe(0);
    expect(calls).toHaveLength(6);
    expect(result.logs).toHaveLength(6);
    expect(pageState()).toEqual(UNHARMED);
    expect((await sandbox.run('2 + 2')).value).toBe(4);
  });
});
