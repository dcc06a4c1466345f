/**
 * The seal: a sandboxed frame in its own process (see `SandboxedFrame`) whose Content-Security-
 * Policy allows scripts and nothing else (no fetch, XHR, WebSocket, EventSource, import of
 * URLs), and inside it, for each run, a fresh worker made from the sandbox runtime's source,
 * which inherits that policy. The page talks to a run's worker over a MessageChannel of the
 * run's own (a channel of src/frame/channel.ts: see protocol.ts); it talks to the frame only to
 * start and end workers and to see that it is alive.
 */
import { SandboxCrashedError } from '../errors/sandbox-crashed-error';
import { type Channel, connect, readMessage } from '../frame/channel';
import { SandboxedFrame } from '../frame/sandboxed-frame';
import { SANDBOX_SHAPES, type SandboxApi, type SandboxToPage } from './protocol';

/** Nothing but inline script (the frame's own), eval (the code) and blob workers. */
export const SANDBOX_CSP =
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:; base-uri 'none'; form-action 'none'";

/** One run's worker, ready: the page's channel to it, and a way to stop it. */
export interface RunWorker {
  /** Asks the run (`SandboxApi`). */
  readonly channel: Channel<SandboxApi>;
  /** Where the answers to the run's tool calls go (see protocol.ts's `PageToSandbox`). */
  readonly port: MessagePort;
  /** What the run says unasked, of the right shape; or why a message is not one. */
  onMessage: ((message: SandboxToPage | string) => void) | undefined;
  /** Called once, with the error, when the worker breaks or the frame dies. */
  onBroken: ((error: SandboxCrashedError) => void) | undefined;
  /** End the worker (its timers and whatever it was doing) and close its channel. */
  stop(): void;
}

export class SandboxFrame {
  readonly #frame = new SandboxedFrame({ csp: SANDBOX_CSP, title: 'Moat code sandbox' });

  /**
   * A fresh worker running `source` (the runtime's text), once it says it holds its port. Rejects
   * with `SandboxCrashedError` when it breaks, when the frame dies, when its first message is not
   * `ready`, or when it takes longer than `startTimeoutMs` (the frame is then taken for broken).
   */
  start(source: string, startTimeoutMs: number): Promise<RunWorker> {
    if (this.closed) return Promise.reject(new SandboxCrashedError({ reason: 'its frame is closed' }));
    const { port1: port, port2 } = new MessageChannel();
    const spawned = this.#frame.spawn(port2, source);
    let told: (message: SandboxToPage | string) => void = () => {};
    const channel = connect<SandboxApi, SandboxToPage>(port, {
      shapes: SANDBOX_SHAPES,
      message: (message) => told(message),
      // Read again for the sentence alone (the channel's error words it for a developer).
      malformed: (_, data) => told(readMessage(SANDBOX_SHAPES, data) as string),
    });
    // Whatever the run says shows the frame's process alive, though its own thread may be slow to answer.
    port.addEventListener('message', () => spawned.heard());
    port.start();
    const stop = () => {
      told = () => {};
      channel.close(new SandboxCrashedError({ reason: 'its run was stopped' }));
      port.close();
      spawned.terminate();
    };
    return new Promise<RunWorker>((resolve, reject) => {
      const timer = setTimeout(() => this.#frame.die(`it did not start within ${startTimeoutMs} ms`), startTimeoutMs);
      const fail = (reason: string) => {
        clearTimeout(timer);
        stop();
        reject(new SandboxCrashedError({ reason }));
      };
      spawned.onBroken = fail;
      told = (m) => {
        if (typeof m === 'string' || m.t !== 'ready')
          return fail(
            `it sent a message the page cannot read: ${typeof m === 'string' ? m : `a '${m.t}' before 'ready'`}`,
          );
        clearTimeout(timer);
        const worker: RunWorker = { channel, port, onMessage: undefined, onBroken: undefined, stop };
        told = (message) => worker.onMessage?.(message);
        spawned.onBroken = (reason) => worker.onBroken?.(new SandboxCrashedError({ reason }));
        resolve(worker);
      };
    });
  }

  /** Watch that the frame's process is alive while a script runs (a crashed frame says nothing). */
  watch(on: boolean, deadMs = 2_000): void {
    this.#frame.watch(on, deadMs);
  }

  /**
   * Remove the frame: its workers, and whatever they were doing, go with it; a run in progress,
   * or a worker starting, fails with `SandboxCrashedError` (it was closed) rather than waiting.
   */
  close(): void {
    this.#frame.die('it was closed');
  }

  /** Closed, or dead: a new run needs a new frame. */
  get closed(): boolean {
    return this.#frame.closed;
  }
}
