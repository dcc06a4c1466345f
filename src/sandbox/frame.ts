/**
 * The seal: a sandboxed frame in its own process (see `SandboxedFrame`) whose Content-Security-
 * Policy allows scripts and nothing else (no fetch, XHR, WebSocket, EventSource, import of
 * URLs), and inside it a worker made from the sandbox runtime's source, which inherits that
 * policy. The page talks to the worker over a MessagePort it hands in; it talks to the frame only
 * to see that it is alive.
 */
import { SandboxCrashedError } from '../errors/sandbox-crashed-error';
import { SandboxedFrame } from '../frame/sandboxed-frame';
import { workerSource } from './runtime';

/** Nothing but inline script (the frame's own), eval (the code) and blob workers. */
export const SANDBOX_CSP =
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:; base-uri 'none'; form-action 'none'";

export class SandboxFrame {
  readonly port: MessagePort;
  readonly ready: Promise<void>;
  readonly #frame: SandboxedFrame;
  readonly #failStart: (error: Error) => void;
  /** Called once when the frame stops answering or breaks. */
  onDeath: ((error: SandboxCrashedError) => void) | undefined;

  constructor(startTimeoutMs: number) {
    const frame = new SandboxedFrame({ csp: SANDBOX_CSP, title: 'Moat code sandbox' });
    const channel = new MessageChannel();
    const worker = frame.spawn(channel.port2, workerSource());
    // A broken worker is a broken sandbox: the frame goes with it.
    worker.onBroken = (reason) => frame.die(reason);
    this.#frame = frame;
    this.port = channel.port1;
    let settle: { resolve: () => void; reject: (e: Error) => void } | undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.ready.catch(() => {});
    const timer = setTimeout(() => frame.die(`it did not start within ${startTimeoutMs} ms`), startTimeoutMs);
    this.#failStart = (error) => {
      clearTimeout(timer);
      settle?.reject(error);
    };
    frame.onDeath = (reason) => {
      const error = new SandboxCrashedError({ reason });
      this.#failStart(error);
      this.onDeath?.(error);
    };
    this.port.onmessage = (event) => {
      if ((event.data as { t?: string })?.t !== 'ready') return;
      clearTimeout(timer);
      settle?.resolve();
    };
  }

  /** Watch that the frame's process is alive while a script runs (a crashed frame says nothing). */
  watch(on: boolean, deadMs = 2_000): void {
    this.#frame.watch(on, deadMs);
  }

  /** Remove the frame: its worker, and whatever the script was doing, go with it. */
  close(): void {
    this.port.onmessage = null;
    this.port.close();
    this.#frame.close();
  }

  get closed(): boolean {
    return this.#frame.closed;
  }
}
