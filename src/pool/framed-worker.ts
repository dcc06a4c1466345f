/**
 * A tool worker in a process of its own (the pool's `worker: { framed: url }`): a sandboxed frame
 * (see `SandboxedFrame`) runs the tools module in a worker, and this stands in for a `Worker` on
 * the page, so the pool drives it the same way. A tool that exhausts memory takes down the
 * frame's process, not the page's: the pool sees the frame stop answering, as a crashed worker.
 */
import { SandboxedFrame } from '../frame/sandboxed-frame';

/** How often a framed worker's process must answer while it lives, at most (see `SandboxedFrame.watch`). */
const FRAME_DEAD_MS = 2_000;

/** A framed worker failed: its script did not load, or its frame's process stopped answering. */
export class FrameFailureEvent extends Event {
  readonly reason: string;
  constructor(reason: string) {
    super('error');
    this.reason = reason;
  }
}

/**
 * The frame's policy: scripts from the tools module's origin (and blob, the worker itself), the
 * network closed when the pool's policy is `'deny'` (the worker's own guard decides the rest).
 */
export function framedWorkerCsp(scriptUrl: string, networkDenied: boolean): string {
  const origin = new URL(scriptUrl).origin;
  const connect = networkDenied ? "'none'" : '*';
  return `default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob: ${origin}; worker-src blob:; connect-src ${connect}; base-uri 'none'; form-action 'none'`;
}

/** Makes framed workers for the module at `scriptUrl` (absolute). */
export function framedWorkers(scriptUrl: string, networkDenied: boolean): () => Worker {
  const csp = framedWorkerCsp(scriptUrl, networkDenied);
  return () => new FramedWorker(scriptUrl, csp) as unknown as Worker;
}

/**
 * The framed worker's script: a classic one (a module worker cannot start from a blob at an opaque
 * origin) that imports the tools module, whose own imports then resolve against its real
 * address, and says when it has loaded. Its `postMessage` is taken first: `serveTools` locks it.
 */
function loader(scriptUrl: string): string {
  return `const post = self.postMessage.bind(self);
import(${JSON.stringify(scriptUrl)}).then(() => post({ loaded: true }), (error) => post({ failed: String(error) }));`;
}

class FramedWorker extends EventTarget {
  readonly #frame: SandboxedFrame;

  constructor(scriptUrl: string, csp: string) {
    super();
    this.#frame = new SandboxedFrame({
      worker: { source: loader(scriptUrl), announces: true },
      csp,
      title: 'Moat tool worker',
    });
    this.#frame.onDeath = (reason) =>
      this.dispatchEvent(new FrameFailureEvent(reason.replace(/^its /, "its frame's ")));
    this.#frame.watch(true, FRAME_DEAD_MS);
    this.#frame.port.start();
  }

  // Messages come straight from the port: no event is made again per message.
  override addEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: AddEventListenerOptions | boolean,
  ): void {
    if (!listener) return;
    if (type === 'message' || type === 'messageerror') this.#frame.port.addEventListener(type, listener, options);
    else super.addEventListener(type, listener, options);
  }

  override removeEventListener(
    type: string,
    listener: EventListenerOrEventListenerObject | null,
    options?: EventListenerOptions | boolean,
  ): void {
    if (!listener) return;
    if (type === 'message' || type === 'messageerror') this.#frame.port.removeEventListener(type, listener, options);
    else super.removeEventListener(type, listener, options);
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    this.#frame.port.postMessage(message, transfer);
  }

  /** Removing the frame ends its worker (and its process, when no other frame shares it). */
  terminate(): void {
    this.#frame.close();
  }
}
