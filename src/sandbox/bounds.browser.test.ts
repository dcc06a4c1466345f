// What a hostile script costs: each of these ends with a typed error, the page keeps drawing
// frames meanwhile, and the next run works (each run is a fresh worker; a crashed frame is
// replaced too).
import { afterEach, describe, expect, it } from 'vitest';
import { countFrames } from '../../test/frames';
import { sleep } from '../../test/sleep';
import { SandboxCrashedError } from '../errors/sandbox-crashed-error';
import { SandboxLimitError } from '../errors/sandbox-limit-error';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { CodeSandbox, createCodeSandbox } from './code-sandbox';

let sandbox: CodeSandbox | undefined;
afterEach(() => {
  sandbox?.close();
  sandbox = undefined;
});

/** Frames the page drew while `work` ran. */
async function framesDuring<T>(work: Promise<T>): Promise<{ frames: number; outcome: T | Error }> {
  const stop = countFrames();
  const outcome = await work.catch((e: Error) => e);
  return { frames: stop(), outcome };
}

describe('the sandbox bounds a hostile script', () => {
  it('an endless loop: ToolTimeoutError, the page draws meanwhile, the next run works', async () => {
    sandbox = createCodeSandbox({ timeoutMs: 600 });
    const { frames, outcome } = await framesDuring(sandbox.run('while (true) {}'));
    expect(outcome).toBeInstanceOf(ToolTimeoutError);
    expect((outcome as Error).message).toBe('The script ran past its time limit of 600 ms (it was stopped)');
    expect(frames).toBeGreaterThan(10);
    expect((await sandbox.run('"next"')).value).toBe('next');
  });

  it('a promise that never settles: ToolTimeoutError; so does a run given its own limit', async () => {
    sandbox = createCodeSandbox({ timeoutMs: 5_000 });
    await expect(sandbox.run('await new Promise(() => {})', { timeoutMs: 300 })).rejects.toBeInstanceOf(
      ToolTimeoutError,
    );
    expect((await sandbox.run('2 + 2')).value).toBe(4);
  });

  it('an abort stops it with the signal reason; the next run works', async () => {
    sandbox = createCodeSandbox({ timeoutMs: 10_000 });
    const controller = new AbortController();
    // Aborted once the script says it runs (its output leaves at the await, before the loop).
    const running = sandbox.run('console.log("looping"); await null; for (;;) {}', {
      signal: controller.signal,
      onOutput: () => controller.abort(new Error('stop it')),
    });
    await expect(running).rejects.toThrow('stop it');
    expect((await sandbox.run('"fine"')).value).toBe('fine');
  });

  it('a 50 MB log flood: SandboxLimitError after the output limit; output streamed until then', async () => {
    sandbox = createCodeSandbox({ maxOutputChars: 1_000_000 });
    const seen: number[] = [];
    const { frames, outcome } = await framesDuring(
      sandbox.run('const line = "x".repeat(1e6); for (let i = 0; i < 50; i++) console.log(line); "done"', {
        onOutput: (entry) => seen.push(entry.text.length),
      }),
    );
    expect(outcome).toBeInstanceOf(SandboxLimitError);
    expect(outcome).toMatchObject({ limit: 'output', max: 1_000_000 });
    expect(seen.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1_000_000);
    expect(frames).toBeGreaterThan(0);
    // Many small lines end the same way.
    await expect(sandbox.run('for (;;) console.log("spam")')).rejects.toBeInstanceOf(SandboxLimitError);
    expect((await sandbox.run('1')).value).toBe(1);
  });

  it('a result over the limit: SandboxLimitError; so is one nested too deeply to read', async () => {
    sandbox = createCodeSandbox({ maxResultChars: 1_000 });
    await expect(sandbox.run('"x".repeat(2000)')).rejects.toMatchObject({
      name: 'SandboxLimitError',
      limit: 'result',
    });
    await expect(sandbox.run('let v = []; for (let i = 0; i < 1e5; i++) v = [v]; v')).rejects.toMatchObject({
      name: 'CodeError',
      message: 'Error: The result could not be read: RangeError: Maximum call stack size exceeded',
    });
    // Up to the limit, the result comes back whole (its JSON text: 998 characters and the quotes).
    expect((await sandbox.run('"y".repeat(998)')).value).toBe('y'.repeat(998));
  });

  it('a script over the code limit is refused before it runs', async () => {
    sandbox = createCodeSandbox({ maxCodeChars: 100 });
    await expect(sandbox.run(`"${'a'.repeat(200)}"`)).rejects.toMatchObject({
      name: 'SandboxLimitError',
      limit: 'code',
    });
  });

  it('a memory bomb: its time limit stops it before the renderer runs out; the page draws, the next run works', async () => {
    // Run to its end, the bomb kills the sandbox frame's own process and the page lives on
    // (e2e/code.spec.ts shows it); Vitest's browser provider stops at any crash, so here the
    // time limit comes first, as it does by default.
    sandbox = createCodeSandbox({ timeoutMs: 2_500 });
    const { frames, outcome } = await framesDuring(
      sandbox.run('const hoard = []; for (;;) hoard.push(new Array(1e6).fill(7));'),
    );
    expect(outcome).toBeInstanceOf(ToolTimeoutError);
    expect(frames).toBeGreaterThan(30);
    expect((await sandbox.run('6 * 7')).value).toBe(42);
  });

  it('a frame that stops answering (its process died) ends the run with SandboxCrashedError', async () => {
    // Swallow the frame's answers to the page's pings, as a dead process would.
    const swallow = (event: MessageEvent) => {
      if ((event.data as { t?: string })?.t === 'pong') event.stopImmediatePropagation();
    };
    addEventListener('message', swallow, { capture: true });
    sandbox = createCodeSandbox({ timeoutMs: 30_000 });
    try {
      const outcome = await sandbox.run('await new Promise(() => {})').catch((e: Error) => e);
      expect(outcome).toBeInstanceOf(SandboxCrashedError);
      expect((outcome as Error).message).toBe(
        'The code sandbox stopped: its process stopped answering (out of memory, most likely)',
      );
    } finally {
      removeEventListener('message', swallow, { capture: true });
    }
    expect((await sandbox.run('"back"')).value).toBe('back');
  });

  it('closing the sandbox ends the run in progress at once, not at its time limit', async () => {
    sandbox = createCodeSandbox({ timeoutMs: 60_000 });
    const running = sandbox.run('console.log("waiting"); await new Promise(() => {})', {
      onOutput: () => sandbox?.close(),
    });
    const outcome = await Promise.race([running.catch((e: Error) => e), sleep(3_000).then(() => 'still waiting')]);
    expect(outcome).toBeInstanceOf(SandboxCrashedError);
    expect((outcome as Error).message).toBe('The code sandbox stopped: it was closed');
  });

  it('closing the sandbox while a run waits for its worker to start ends that run at once', async () => {
    // A worker that never says it is ready: the run waits on its start, within a limit of 60 s.
    sandbox = new CodeSandbox({ startTimeoutMs: 60_000 }, 'onmessage = () => {}');
    const running = sandbox.run('1').catch((e: Error) => e);
    for (let i = 0; i < 100 && !document.querySelector('iframe[title="Moat code sandbox"]'); i++) await sleep(10);
    sandbox.close();
    const outcome = await Promise.race([running, sleep(3_000).then(() => 'still waiting')]);
    expect(outcome).toBeInstanceOf(SandboxCrashedError);
    expect((outcome as Error).message).toBe('The code sandbox stopped: it was closed');
  });

  it('a sandbox that cannot start in time: SandboxCrashedError', async () => {
    sandbox = createCodeSandbox({ startTimeoutMs: 1 });
    await expect(sandbox.run('1')).rejects.toThrow('The code sandbox stopped: it did not start within 1 ms');
  });
});
