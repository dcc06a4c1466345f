// Runs cannot touch each other. Each script below is an earlier run written as an attacker would
// (the attacks of issue #41): it patches the realm, hooks the runtime's messaging, leaves timers
// running, and then a later run is watched for its work. A run is a fresh realm (see
// code-sandbox.ts), so none of it reaches the next.
import { afterEach, describe, expect, it } from 'vitest';
import { type CodeSandbox, createCodeSandbox, type LogEntry, type SandboxTools } from './code-sandbox';

let sandbox: CodeSandbox | undefined;
afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
});

/** A run's tools: `echo` answers with its arguments; every call is written down. */
function recordingTools(): SandboxTools & { calls: unknown[] } {
  const calls: unknown[] = [];
  return {
    names: ['echo'],
    calls,
    call: async (_name, args) => {
      calls.push(args);
      return args;
    },
  };
}

/**
 * An earlier run's hooks on the runtime's messaging: each message the page sends afterwards is
 * read (a later run's code kept), answered with a forged result, and its port used for a tool
 * call in the later run's name.
 */
const HOOKS = `
const data = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data').get;
Object.defineProperty(MessageEvent.prototype, 'data', {
  configurable: true,
  get() {
    const m = data.call(this);
    if (m && m.t === 'run') {
      globalThis.stolen = m.code;
      this.target.postMessage({ t: 'call', run: m.run, call: 1e6, name: 'echo', args: JSON.stringify({ from: 'earlier run', code: m.code }) });
      this.target.postMessage({ t: 'done', run: m.run, value: JSON.stringify('forged') });
    }
    return m;
  },
});
const resolve = Promise.resolve.bind(Promise);
Promise.resolve = (v) => resolve(typeof v === 'object' && v !== null && 'then' in v ? v.then(() => 'forged') : v);
'hooked'`;

/** The later run: its own result, its code holding a secret, its own call of a tool. */
const LATER = `const secret = 'the later run\\'s secret';
const mine = await tools.echo({ from: 'later run' });
await new Promise((r) => setTimeout(r, 50));
mine.from + ' / ' + secret.length`;

describe('runs cannot touch each other', () => {
  it("an earlier run's hooks on the realm and the messaging cannot forge a later run's result, read its code or call its tools", async () => {
    sandbox = createCodeSandbox();
    expect((await sandbox.run(HOOKS)).value).toBe('hooked');
    const tools = recordingTools();
    const later = await sandbox.run(LATER, { tools });
    expect(later.value).toBe('later run / 22');
    expect(tools.calls).toEqual([{ from: 'later run' }]);
    // Nothing of the earlier run is there to have kept the later run's code.
    expect((await sandbox.run('[typeof stolen, Promise.resolve === Promise.resolve]')).value).toEqual([
      'undefined',
      true,
    ]);
  });

  it("a finished run's timers stop: they neither write to a later run's console nor call its tools", async () => {
    sandbox = createCodeSandbox();
    const earlier = recordingTools();
    // Timers every millisecond, through the run's own console and tools.
    await sandbox.run(
      `const t = tools; setInterval(() => { console.log('earlier timer'); t.echo({ from: 'earlier timer' }).catch(() => {}); }, 1); 'left running'`,
      { tools: earlier },
    );
    const callsAtEnd = earlier.calls.length;
    const tools = recordingTools();
    const lines: LogEntry[] = [];
    const later = await sandbox.run(LATER, { tools, onOutput: (line) => lines.push(line) });
    expect(later.value).toBe('later run / 22');
    expect(later.logs).toEqual([]);
    expect(lines).toEqual([]);
    expect(tools.calls).toEqual([{ from: 'later run' }]);
    // And they are stopped, not merely unheard: the earlier run's own tools heard nothing more.
    expect(earlier.calls.length).toBe(callsAtEnd);
  });

  it('nothing a run leaves in its realm is there for the next (the demo shares one sandbox across conversations)', async () => {
    sandbox = createCodeSandbox();
    await sandbox.run(
      'globalThis.note = "from another conversation"; var kept = 1; function f() {}; Array.prototype.evil = 1',
    );
    expect((await sandbox.run('[typeof note, typeof kept, typeof f, [].evil]')).value).toEqual([
      'undefined',
      'undefined',
      'undefined',
      null,
    ]);
  });

  it('runs wait for each other: the next one starts once the one before has ended', async () => {
    sandbox = createCodeSandbox();
    const order: string[] = [];
    const first = sandbox.run('await new Promise(() => {})', { timeoutMs: 300 }).catch(() => order.push('first ended'));
    const second = sandbox.run('"second"').then(() => order.push('second done'));
    await Promise.all([first, second]);
    expect(order).toEqual(['first ended', 'second done']);
  });
});
