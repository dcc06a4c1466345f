/**
 * Tool workers in a process of their own (`createWorkerPool({ worker: framedWorkers(url) })`): a
 * sandboxed frame (see `SandboxedFrame`) runs the tools module in a worker, and `FramedWorker`
 * stands in for a `Worker` on the page, so the pool drives it the same way. A tool that exhausts
 * memory takes down the frame's process, not the page's: the pool sees the frame stop answering,
 * as a crashed worker. Only a page that calls `framedWorkers` loads any of this.
 */
import { describeValue } from '../errors/moat-error';
import { SandboxedFrame } from '../frame/sandboxed-frame';
import { PageStoreHost } from './page-store-host';
import type { WorkerHost } from './pool-options';

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

/**
 * Each worker of the pool runs the tools module at `url` inside a sandboxed frame, in a process
 * apart from the page's, so that a tool that exhausts memory cannot take the page down. The
 * module is fetched from the frame's opaque origin (so it must be served with CORS); the page
 * serves the tools' `store` (an opaque origin has no IndexedDB); no shared memory.
 *
 * @example
 * import toolsUrl from './tools.worker.ts?worker&url'; // Vite: the built worker script's address
 * const pool = createWorkerPool({ worker: framedWorkers(toolsUrl), store: 'my-app-memory' });
 */
export function framedWorkers(url: string | URL): WorkerHost {
  const scriptUrl = absoluteUrl(url);
  return {
    kind: 'framed',
    factory: (networkDenied) => {
      const csp = framedWorkerCsp(scriptUrl, networkDenied);
      return () => new FramedWorker(scriptUrl, csp) as unknown as Worker;
    },
    storeHost: (name) => new PageStoreHost(name),
  };
}

/** The tools module's absolute address (a relative one is read against the page's). */
function absoluteUrl(url: unknown): string {
  const bad = () => new TypeError(`Expected framedWorkers to get the tools module's URL, got ${describeValue(url)}`);
  if (!(url instanceof URL) && (typeof url !== 'string' || url === '')) throw bad();
  try {
    return new URL(url, typeof document !== 'undefined' ? document.baseURI : undefined).href;
  } catch {
    throw bad();
  }
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
