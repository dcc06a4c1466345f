/**
 * Sealed tool workers, the pool's default (`createWorkerPool({ worker: toolsUrl })`): the page
 * reads the tools module (and what it imports) from its own origin and hands the text to a
 * sandboxed frame of the pool's (see `SandboxedFrame`), whose workers run it there. The browser
 * itself then keeps the tools from the app's origin (IndexedDB, Cache Storage, cookies,
 * `BroadcastChannel`), from the page's DOM and globals and, under `network: 'deny'`, from every
 * network door, by the frame's Content-Security-Policy; and a tool that exhausts memory takes
 * down the frame's process, not the page's. `FramedWorker` stands in for a `Worker` on the page,
 * so the pool drives it like any other.
 */
import { describeValue } from '../errors/moat-error';
import { loadModuleGraph, type ModuleGraph } from './module-graph';
import { onceUntilFailure } from './once-until-failure';
import { type FrameWorker, SandboxedFrame } from './sandboxed-frame';
import { toolsModuleError } from './tools-module-error';
import { cspOrigin } from './worker-csp';

/**
 * How long a frame's process may go without answering while it lives (see `SandboxedFrame.watch`).
 * On two loaded cores a live frame went 2 s without a word while its workers started; a frame
 * that ran out of memory never answers again, so waiting longer costs only the notice.
 */
export const FRAME_DEAD_MS = 5_000;

/** A sealed worker failed: its module did not load, it broke, or its frame's process stopped answering. */
class FrameFailureEvent extends Event {
  readonly reason: string;
  constructor(reason: string) {
    super('error');
    this.reason = reason;
  }
}

/**
 * The frame's policy: its own inline script, eval (tools may compile code, as zod does), blob
 * scripts and workers, and the data: URL each tool worker starts from; no script from any URL
 * (the tools arrive as text). Connections: none when the pool's policy is `'deny'`, any otherwise
 * (`'*'`: the worker's own guard decides), or only the origins listed (an MCP server's client).
 */
export function sealedFrameCsp(connect: '*' | readonly string[]): string {
  const sources = connect === '*' ? '*' : connect.length === 0 ? "'none'" : connect.map(cspOrigin).join(' ');
  return `default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob: data:; connect-src ${sources}; base-uri 'none'; form-action 'none'`;
}

/**
 * Tools sealed off the page, by name: `worker: framedWorkers(url)` is `worker: url` (the tools
 * module's absolute address), the pool's default.
 *
 * @example
 * import toolsUrl from './tools.worker.ts?worker&url'; // Vite: the built worker script's address
 * const pool = createWorkerPool({ worker: framedWorkers(toolsUrl), store: 'my-app-memory' });
 */
export function framedWorkers(url: string | URL): URL {
  return new URL(absoluteUrl(url));
}

/**
 * The worker factory of a sealed pool: each worker runs the tools module at `url` inside a
 * sandboxed frame (one per pool, in a process apart from the page's). The page reads the module
 * from its own origin (no CORS needed), serves the tools' `store` (an opaque origin has none; see
 * `PageStoreHost`), and shares no memory with them. Throws where there is no page.
 */
export function sealedWorkers(url: string | URL, networkDenied: boolean): () => Worker {
  const scriptUrl = absoluteUrl(url);
  if (typeof document === 'undefined') {
    throw new TypeError(
      'Sealed tool workers need a page (their frame is an iframe): in a worker or in Node, pass `worker: () => new Worker(url, { type: "module" })`, the plain mode',
    );
  }
  // The scanner (es-module-lexer) and Moat's runtime load only for a page that seals its tools.
  // A failure is said to the workers that wait; the next worker tries again.
  const load = onceUntilFailure(() =>
    Promise.all([
      import('./scan-imports').then(({ scanImports }) => loadModuleGraph(scriptUrl, scanImports)),
      import('../../worker/sealed-runtime.ts?bundled-script').then((m) => m.default),
    ]),
  );
  void load().catch(() => {});
  const frames = new PoolFrame(load, sealedFrameCsp(networkDenied ? [] : '*'), scriptUrl);
  return () => new FramedWorker(frames) as unknown as Worker;
}

/** The tools module's absolute address (a relative one is read against the page's). */
function absoluteUrl(url: unknown): string {
  const bad = () =>
    new TypeError(`Expected \`worker\` to be the tools module's URL (a string or URL), got ${describeValue(url)}`);
  if (!(url instanceof URL) && (typeof url !== 'string' || url === '')) throw bad();
  try {
    return new URL(url, typeof document !== 'undefined' ? document.baseURI : undefined).href;
  } catch {
    throw bad();
  }
}

/**
 * A pool's frame: made when a worker first needs it, with the module graph; made again after it
 * died; removed once its last worker has ended (unless a new one comes within the same task, as
 * a restarted worker's replacement does).
 */
class PoolFrame {
  /** The tools' module graph, and the runtime each worker evaluates before it. */
  readonly #graph: () => Promise<[ModuleGraph, string]>;
  readonly #csp: string;
  #frame: SandboxedFrame | undefined;
  #closing: ReturnType<typeof setTimeout> | undefined;

  /** The tools module's address, for messages. */
  readonly url: string;

  constructor(graph: () => Promise<[ModuleGraph, string]>, csp: string, url: string) {
    this.url = url;
    this.#graph = graph;
    this.#csp = csp;
  }

  async spawn(port: MessagePort): Promise<FrameWorker> {
    clearTimeout(this.#closing);
    // The frame's process starts while the page reads the modules (each takes tens of ms).
    if (!this.#frame || this.#frame.closed) {
      this.#frame = new SandboxedFrame({ csp: this.#csp, title: 'Moat tool worker' });
      this.#frame.watch(true, FRAME_DEAD_MS);
    }
    const frame = this.#frame;
    const [modules, runtime] = await this.#graph();
    // The frame died while the modules were read: a new one.
    if (frame.closed) return this.spawn(port);
    // Moat's runtime runs first in each worker: it holds the port and the realm's locks before
    // any module of the tools is evaluated (worker/sealed-runtime.ts).
    frame.load(modules, runtime);
    return frame.spawn(port);
  }

  /** A worker ended: with none left, the frame goes. */
  release(): void {
    const frame = this.#frame;
    if (!frame || frame.workers > 0) return;
    clearTimeout(this.#closing);
    this.#closing = setTimeout(() => {
      if (frame.workers === 0) frame.close();
    });
  }
}

type Listener = EventListenerOrEventListenerObject | null;

/** A worker whose last messages can be waited for (a sealed one: see `FramedWorker.arrived`). */
export interface Arrivals {
  arrived(): Promise<void>;
}

class FramedWorker extends EventTarget implements Arrivals {
  readonly #port: MessagePort;
  #worker: FrameWorker | undefined;
  #ended = false;
  readonly #frames: PoolFrame;

  constructor(frames: PoolFrame) {
    super();
    this.#frames = frames;
    const channel = new MessageChannel();
    this.#port = channel.port1;
    // What the pool posts before the worker exists waits in the port.
    frames.spawn(channel.port2).then(
      (worker) => {
        if (this.#ended) {
          worker.terminate();
          frames.release();
          return;
        }
        this.#worker = worker;
        // A bundle that loads chunks by importScripts (webpack splits a worker's dependencies off
        // so) asks for URLs a sealed worker cannot reach: the bundler's setting is the fix.
        worker.onBroken = (reason) =>
          this.#fail(
            /importScripts/.test(reason)
              ? toolsModuleError(
                  frames.url,
                  `its bundle loads another script with importScripts, which a sealed worker cannot (${reason})`,
                )
              : reason.replace(/^its /, "its frame's "),
          );
        // Whatever the worker says shows its frame's process alive (see SandboxedFrame.watch).
        this.#port.addEventListener('message', () => worker.heard());
      },
      (error: unknown) => this.#fail(`the tools module could not be loaded: ${(error as Error)?.message ?? error}`),
    );
  }

  /**
   * Message listeners go on the port itself, the worker's channel (delivery starts with the
   * first); an error is the frame's to say, dispatched here. Dispatching each message again
   * instead cost a sealed call's round trip about 0.05 of a bare one (pool/call-rtt).
   */
  override addEventListener(type: string, listener: Listener, options?: boolean | AddEventListenerOptions): void {
    if (type !== 'message' && type !== 'messageerror') super.addEventListener(type, listener, options);
    else if (listener) {
      this.#port.addEventListener(type, listener, options);
      this.#port.start();
    }
  }

  override removeEventListener(type: string, listener: Listener, options?: boolean | EventListenerOptions): void {
    if (type !== 'message' && type !== 'messageerror') super.removeEventListener(type, listener, options);
    else if (listener) this.#port.removeEventListener(type, listener, options);
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    this.#port.postMessage(message, transfer);
  }

  /**
   * Resolves once what the worker posted before now has very likely arrived: a round trip to its
   * own frame (`SandboxedFrame.arrived`; at once if that frame died, or the worker never started).
   */
  arrived(): Promise<void> {
    return this.#ended || !this.#worker ? Promise.resolve() : this.#worker.arrived();
  }

  /** The worker ends; the frame goes with its last worker. */
  terminate(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.#port.close();
    this.#worker?.terminate();
    this.#frames.release();
  }

  #fail(reason: string): void {
    if (this.#ended) return;
    this.dispatchEvent(new FrameFailureEvent(reason));
  }
}
