// What the sandbox's side says is checked before use. The runtime here is a stand-in that posts
// whatever a test tells it (hostileRuntime below), as a runtime a script had taken over would:
// each bad message ends its run at once with a typed error (never an uncaught error on the page,
// never a wait for the time limit), and the next run works.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sleep } from '../../test/sleep';
import { SandboxLimitError } from '../errors/sandbox-limit-error';
import { CodeSandbox, type SandboxTools } from './code-sandbox';

/** Far longer than any test waits: a run that ends on time did not wait for it. */
const LIMIT_MS = 60_000;
/**
 * How long a bad message may take to end its run: a few milliseconds for a small one; a 50 MB
 * one took 4-6 s to make and cross on a loaded two-core machine. Still a quarter of the limit a
 * run that waited for it would take.
 */
const PROMPTLY_MS = 15_000;

let sandbox: CodeSandbox | undefined;
let uncaught: unknown[] = [];
const onError = (event: ErrorEvent) => uncaught.push(event.error ?? event.message);
const onRejection = (event: PromiseRejectionEvent) => uncaught.push(event.reason);
beforeEach(() => {
  uncaught = [];
  addEventListener('error', onError);
  addEventListener('unhandledrejection', onRejection);
});
afterEach(() => {
  removeEventListener('error', onError);
  removeEventListener('unhandledrejection', onRejection);
  sandbox?.close();
  sandbox = undefined;
});

/**
 * A stand-in for the runtime (runtime.ts) that says whatever it is told: the value of each run's
 * script is a list of messages. A `done` or a `fail` is its answer to the page's `run` request
 * (what the runtime answers with), every other message is posted unasked, as it is. `first`
 * replaces its `ready` when given. It is sent as text, so the function stands alone.
 */
function hostileRuntime(first: unknown): void {
  const scope = self as unknown as { onmessage: ((event: MessageEvent) => void) | null };
  scope.onmessage = (event) => {
    scope.onmessage = null;
    const port = event.ports[0] as MessagePort;
    port.postMessage(first === undefined ? { t: 'ready' } : first);
    port.onmessage = async (e: MessageEvent) => {
      const request = e.data;
      if (request?.type !== 'APPLY' || request.path?.[0] !== 'run') return;
      // biome-ignore lint/security/noGlobalEval: this worker runs what the test wrote, as the runtime would
      const evaluate = eval;
      const said = (await evaluate(request.argumentList[0].value.code)) as { t?: unknown }[];
      for (const message of said)
        if (message?.t === 'done' || message?.t === 'fail')
          port.postMessage({ id: request.id, type: 'RAW', value: message });
        else port.postMessage(message);
    };
  };
}

function hostileRuntimeSource(first?: unknown): string {
  return `(${hostileRuntime.toString()})(${first === undefined ? 'undefined' : JSON.stringify(first)})`;
}

const tools: SandboxTools = { names: ['echo'], call: async (_name, args) => args };

/** The sandbox's side posts what `messages` (a script's text) makes; what the run came to, or that it still waits. */
async function outcomeOf(messages: string, first?: unknown): Promise<unknown> {
  sandbox ??= new CodeSandbox({ timeoutMs: LIMIT_MS, startTimeoutMs: LIMIT_MS }, hostileRuntimeSource(first));
  const run = sandbox.run(messages, { tools }).then(
    (r) => r.value,
    (e: unknown) => e,
  );
  return Promise.race([run, sleep(PROMPTLY_MS).then(() => 'still waiting')]);
}

/** The error of a message the page cannot read. */
const unreadable = (why: string | RegExp) =>
  expect.objectContaining({
    name: 'SandboxCrashedError',
    message: expect.stringMatching(
      typeof why === 'string'
        ? `^The code sandbox stopped: it sent a message the page cannot read: ${why.replace(/[()[\]{}.*+?]/g, '\\$&')}$`
        : why,
    ),
  });

describe('a malformed message from the sandbox ends its run with a typed error', () => {
  it('a result that is not JSON text', async () => {
    expect(await outcomeOf(`[{ t: 'done', value: '{not json' }]`)).toEqual(
      unreadable("a 'done' whose value is not JSON text"),
    );
    expect(uncaught).toEqual([]);
    expect(await outcomeOf(`[{ t: 'done', value: '7' }]`)).toBe(7);
  });

  it.each([
    ['null', 'a message that is not an object (null)'],
    ['"done"', 'a message that is not an object (string)'],
    ['[1]', 'a message that is not an object (an array)'],
    ['new Map()', 'a message that is not an object (Map)'],
    ['{ value: "1" }', 'a message of no known type'],
    ['{ t: "done", value: 5 }', "a 'done' message whose value is not a string"],
    ['{ t: "done", value: "1", run: 2 }', "a 'done' message with a key it does not have"],
    ['{ t: "out", entries: "x" }', "an 'out' message whose entries is not an array"],
    ['{ t: "out", entries: [{ level: "shout", text: "x" }] }', "an 'out' entry that is not a { level, text } line"],
    [
      '{ t: "out", entries: [{ level: "log", text: "x", extra: 1 }] }',
      "an 'out' entry that is not a { level, text } line",
    ],
    ['{ t: "fail", name: 5 }', "a 'fail' message whose name is not a string"],
    ['{ t: "call", call: "1", name: "echo", args: "{}" }', "a 'call' message whose call is not an integer"],
    ['{ t: "call", call: 1, name: "echo" }', "a 'call' message without its args"],
    ['{ t: "call", call: 1, name: "rm", args: "{}" }', 'a call of a tool the run was not given'],
    ['{ t: "ready" }', "a second 'ready'"],
    ['{ t: "exfiltrate", what: "everything" }', 'a message of no known type'],
    ['{ t: "done", value: "[".repeat(5000) + "]".repeat(5000) }', 'a result nested deeper than 1000 levels'],
  ])('%s', async (message, why) => {
    expect(await outcomeOf(`[${message}]`)).toEqual(unreadable(why));
    expect(uncaught).toEqual([]);
    expect(await outcomeOf(`[{ t: 'done', value: '"next"' }]`)).toBe('next');
  });

  it('before it says it is ready: the start fails at once, not at its time limit', async () => {
    expect(await outcomeOf(`[]`, { t: 'limit' })).toEqual(unreadable("a 'limit' before 'ready'"));
    sandbox?.close();
    sandbox = undefined;
    expect(await outcomeOf(`[]`, 'hello')).toEqual(unreadable('a message that is not an object (string)'));
    expect(uncaught).toEqual([]);
  });
});

// A hang guard, not a time limit: cloning 50 MB of messages takes 2 s alone and went past Vitest's
// 15 s beside test:loaded's two busy loops.
describe('a huge message from the sandbox ends its run with a typed error', { timeout: 60_000 }, () => {
  it('of no known type, a name no tool has, a result or console over its limits', async () => {
    expect(await outcomeOf(`[{ t: 'nope', blob: 'x'.repeat(5e7) }]`)).toEqual(unreadable('a message of no known type'));
    expect(await outcomeOf(`[{ t: 'call', call: 1, name: 'x'.repeat(1e7), args: '{}' }]`)).toEqual(
      unreadable('a call of a tool the run was not given'),
    );
    const result = await outcomeOf(`[{ t: 'done', value: JSON.stringify('x'.repeat(2e6)) }]`);
    expect(result).toBeInstanceOf(SandboxLimitError);
    expect(result).toMatchObject({ limit: 'result', max: 1_000_000 });
    const output = await outcomeOf(
      `[{ t: 'out', entries: Array.from({ length: 2e6 }, () => ({ level: 'log', text: '' })) }]`,
    );
    expect(output).toBeInstanceOf(SandboxLimitError);
    expect(output).toMatchObject({ limit: 'output', max: 1_000_000 });
    expect(uncaught).toEqual([]);
    expect(await outcomeOf(`[{ t: 'done', value: '"next"' }]`)).toBe('next');
  });
});
