/**
 * Workers in a process apart from the page: a `sandbox="allow-scripts"` iframe (an opaque origin:
 * no storage, cookies, `BroadcastChannel` or DOM of the app; Chromium puts a page's sandboxed
 * frames in a process of their own) whose Content-Security-Policy the caller writes, and inside
 * it workers made from blobs, which inherit that policy. The page talks to each worker over a
 * MessagePort it hands in, and to the frame only to start and end workers and to see that it is
 * alive: a frame whose process died (out of memory) says nothing, so it is pinged while watched.
 *
 * Code reaches the frame as text, never by URL: a worker's own classic script, or a module graph
 * (see `loadModuleGraph`) that each worker's loader turns into blob URLs and imports. So the
 * policy can close every network door, script URLs included, and nothing needs CORS.
 *
 * The frame's control (modules, spawn, end, ping, an echo) stays a few hand-made messages rather than
 * Comlink (./channel.ts), which carries everything the page asks of the workers themselves. The
 * frame's script is text made from one function that may use nothing from outside itself: Comlink
 * in it would be a copy of the library in every frame's srcdoc, to serve three one-way messages
 * that need no answer and a ping whose point is that a dead process never answers (a request per
 * ping would pile up unanswered promises). The page still exposes nothing to the frame: what the
 * frame says (`loaded`, `pong`, `broken`) is read by tag and field, from the frame's own window.
 */
import type { ModuleGraph } from './module-graph';

/**
 * The frame's own script (made into text: it may use nothing from outside itself), given the
 * module graph's loader.
 */
function frameMain(loader: string): void {
  const workers = new Map<number, Worker>();
  let graph: unknown;
  addEventListener('message', (event: MessageEvent) => {
    if (event.source !== parent) return;
    const m = event.data;
    if (m?.t === 'ping') parent.postMessage({ t: 'pong', n: m.n }, '*');
    else if (m?.t === 'echo' && event.ports[0]) {
      const echo = event.ports[0];
      echo.onmessage = (e) => echo.postMessage(e.data);
    } else if (m?.t === 'modules') graph = m.graph;
    else if (m?.t === 'spawn' && typeof m.id === 'number' && !workers.has(m.id) && event.ports[0]) {
      const id: number = m.id;
      const port = event.ports[0];
      const broken = (reason: string) => parent.postMessage({ t: 'broken', id, reason }, '*');
      const classic = typeof m.source === 'string';
      if (!classic && graph === undefined) return broken('it was given no code to run');
      // A worker's own script: from a blob, given the port at once. The module graph's loader:
      // from a data: URL, which (unlike a blob of an opaque origin) makes the worker a secure
      // context (crypto.subtle); it says when the graph is loaded (or why not), and only then
      // gets the port.
      const worker = classic
        ? new Worker(URL.createObjectURL(new Blob([m.source], { type: 'text/javascript' })))
        : new Worker(`data:text/javascript,${encodeURIComponent(loader)}`);
      if (!classic) worker.postMessage(graph);
      workers.set(id, worker);
      worker.onerror = (e) => broken(e.message ? `its worker failed: ${e.message}` : 'its worker failed to start');
      if (classic) {
        worker.postMessage('port', [port]);
        return;
      }
      worker.onmessage = (e: MessageEvent) => {
        const said = e.data as { loaded?: boolean; failed?: string };
        if (said?.loaded) worker.postMessage('port', [port]);
        else if (typeof said?.failed === 'string') broken(`its worker could not load its script: ${said.failed}`);
        worker.onmessage = null;
      };
    } else if (m?.t === 'end') {
      workers.get(m.id)?.terminate();
      workers.delete(m.id);
    }
  });
  parent.postMessage({ t: 'loaded' }, '*');
}

/**
 * A module graph's loader, a classic script (a module worker cannot start at an opaque origin):
 * it takes the graph from its first message, evaluates the script to run first, if any (Moat's
 * runtime, which locks the realm: so the loader keeps its own way to answer the frame before),
 * makes each module a blob URL of its own (from the pieces of its text and the URLs of its
 * imports), dependencies first, and imports the entry. A dynamic import() reads the frozen table
 * (see GraphModule). Text, not a function made into text: a dev server rewrites the import() of
 * a function's body.
 */
const GRAPH_LOADER = `onmessage = (event) => {
  onmessage = null;
  const graph = event.data;
  const post = self.postMessage.bind(self);
  if (graph.first) {
    try {
      importScripts(URL.createObjectURL(graph.first));
    } catch (error) {
      post({ failed: String(error) });
      return;
    }
  }
  const urls = [];
  for (const module of graph.modules) {
    const parts = module.parts.map((p) =>
      typeof p === 'number' ? urls[p] : typeof p.late === 'number' ? 'self[Symbol.for("moat.modules")][' + p.late + ']' : p);
    urls.push(URL.createObjectURL(new Blob(parts, { type: 'text/javascript' })));
  }
  Object.defineProperty(self, Symbol.for('moat.modules'), { value: Object.freeze(urls) });
  import(urls[graph.entry]).then(() => post({ loaded: true }), (error) => post({ failed: String(error) }));
};`;

const PING_MS = 250;

/**
 * The longest `arrived` waits for the frame's thread: it answers in milliseconds; one starved past
 * this (its workers still talking, so it is not taken for dead) still lets the waiter go on.
 */
const ARRIVAL_WAIT_MS = 2_000;

export interface SandboxedFrameOptions {
  /** The frame's Content-Security-Policy (its workers inherit it). */
  csp: string;
  /** The frame's title, for the accessibility tree (the frame itself is hidden). */
  title: string;
}

/** One worker in the frame, seen from the page. */
export interface FrameWorker {
  /** Called once, with the reason, when the worker breaks or the frame dies. */
  onBroken: ((reason: string) => void) | undefined;
  /** End the worker (and what it was doing). */
  terminate(): void;
  /**
   * The worker said something (a message on its port): its process lives, whatever the frame's
   * own thread, busy or starved, has not answered yet.
   */
  heard(): void;
  /** Resolves once what it posted before now has very likely arrived (its frame's `arrived`). */
  arrived(): Promise<void>;
}

export class SandboxedFrame {
  readonly #iframe: HTMLIFrameElement;
  readonly #onWindowMessage: (event: MessageEvent) => void;
  readonly #workers = new Map<number, FrameWorker>();
  /** What waits for the frame's script to run. */
  #outbox: { message: unknown; transfer: Transferable[] }[] | undefined = [];
  #nextId = 1;
  #modules = false;
  #lastPong = 0;
  /** The page's end of a port the frame's thread answers on (see `arrived`), and who waits on it. */
  readonly #echo = new MessageChannel();
  readonly #arrivals: (() => void)[] = [];
  #pingTimer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  /** Called once, with the reason, when the frame breaks or stops answering; it is closed first. */
  onDeath: ((reason: string) => void) | undefined;

  constructor(options: SandboxedFrameOptions) {
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('aria-hidden', 'true');
    iframe.setAttribute('tabindex', '-1');
    iframe.title = options.title;
    iframe.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden';
    // The loader as a string literal in the script: with no '<', nothing in it can end the script.
    const loader = JSON.stringify(GRAPH_LOADER).replace(/</g, '\\u003c');
    iframe.srcdoc = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${escapeAttribute(options.csp)}"><script>(${frameMain.toString()})(${loader})</script>`;
    this.#iframe = iframe;
    this.#onWindowMessage = (event) => {
      if (event.source !== iframe.contentWindow || event.source === null) return;
      const m = event.data as { t?: string; reason?: string; id?: number };
      if (m?.t === 'pong') this.#lastPong = performance.now();
      else if (m?.t === 'loaded' && this.#outbox) {
        const waiting = this.#outbox;
        this.#outbox = undefined;
        this.#lastPong = performance.now();
        for (const { message, transfer } of waiting) iframe.contentWindow?.postMessage(message, '*', transfer);
      } else if (m?.t === 'broken' && typeof m.id === 'number') this.#broken(m.id, String(m.reason));
    };
    addEventListener('message', this.#onWindowMessage);
    // Echoes come back in the order asked: each answers the oldest waiting.
    this.#echo.port1.onmessage = () => this.#arrivals.shift()?.();
    this.#send({ t: 'echo' }, [this.#echo.port2]);
    (document.body ?? document.documentElement).append(iframe);
  }

  /**
   * Resolves once what the frame's workers posted to the page before now has very likely
   * arrived: after a round trip to the frame's thread over a port (at once if the frame is
   * closed). Ports promise order only within themselves; in practice Chromium carries an answer
   * written after a worker's message behind it, and anywhere the wait is at least as long as a
   * message takes now. Used when a worker stuck in a call cannot say what it started: its last
   * words may still be on their way. Only the frame's thread holds the echo's other end (its
   * workers cannot reach it); an early answer would only shorten the wait. At most
   * `ARRIVAL_WAIT_MS`.
   */
  arrived(): Promise<void> {
    if (this.#closed) return Promise.resolve();
    return new Promise((resolve) => {
      const cap = setTimeout(resolve, ARRIVAL_WAIT_MS);
      this.#arrivals.push(() => {
        clearTimeout(cap);
        resolve();
      });
      this.#echo.port1.postMessage(null);
    });
  }

  /**
   * The modules the frame's workers import (`spawn(port)`), given once: the frame may
   * be made first, its process starting while the page still reads them. `first`, a classic
   * script, is evaluated in each worker before any of them (Moat's sealed runtime).
   */
  load(modules: ModuleGraph, first?: string): void {
    if (this.#modules) return;
    this.#modules = true;
    // The text goes in Blobs: each crosses to the frame and on to its workers as a handle, where
    // a string is copied and read again on each side (in a trace, about 5 ms a copy of the bench's
    // 66 KB module in the frame's new process, garbage collection included).
    const graph = {
      ...(first === undefined ? {} : { first: new Blob([first], { type: 'text/javascript' }) }),
      entry: modules.entry,
      modules: modules.modules.map(({ parts }) => ({
        parts: parts.map((p) => (typeof p === 'string' ? new Blob([p]) : p)),
      })),
    };
    this.#send({ t: 'modules', graph });
  }

  /**
   * Start a worker in the frame: one that runs `source`, a classic script, or else the module
   * graph (`load`), once it is loaded. It gets `port` (the worker's end of the caller's channel
   * to it) in a 'port' message.
   */
  spawn(port: MessagePort, source?: string): FrameWorker {
    const id = this.#nextId++;
    const frame = this;
    const worker: FrameWorker = {
      onBroken: undefined,
      terminate() {
        if (frame.#workers.delete(id)) frame.#send({ t: 'end', id });
      },
      heard() {
        frame.#lastPong = performance.now();
      },
      arrived: () => frame.arrived(),
    };
    this.#workers.set(id, worker);
    this.#send(source === undefined ? { t: 'spawn', id } : { t: 'spawn', id, source }, [port]);
    return worker;
  }

  /** Workers started and not ended. */
  get workers(): number {
    return this.#workers.size;
  }

  /**
   * Watch that the frame's process is alive (a crashed frame says nothing): pinged every 250 ms,
   * dead after `deadMs` without a word from it, counted from when its script ran (a process slow
   * to start is the caller's start timeout to judge). A word is an answer to a ping or anything
   * one of its workers says (`FrameWorker.heard`): the frame's own thread may be slow to answer
   * while the process is busy with a large message, but a process that died says nothing at all.
   */
  watch(on: boolean, deadMs = 2_000): void {
    clearInterval(this.#pingTimer);
    this.#pingTimer = undefined;
    if (!on || this.#closed) return;
    this.#lastPong = performance.now();
    let n = 0;
    let lastTick = performance.now();
    this.#pingTimer = setInterval(() => {
      const now = performance.now();
      // A tick that comes late means the page itself was busy: answers may be waiting unread in
      // its queue, so silence proves nothing this time; the frame gets a whole period again.
      if (now - lastTick > 2 * PING_MS) this.#lastPong = Math.max(this.#lastPong, now - PING_MS);
      lastTick = now;
      if (!this.#outbox && now - this.#lastPong > deadMs) {
        this.die('its process stopped answering (out of memory, most likely)');
        return;
      }
      if (!this.#outbox) this.#iframe.contentWindow?.postMessage({ t: 'ping', n: ++n }, '*');
    }, PING_MS);
  }

  /** The frame failed: closed, then each worker's `onBroken` and `onDeath` are told why (once). */
  die(reason: string): void {
    if (this.#closed) return;
    const workers = [...this.#workers.values()];
    const onDeath = this.onDeath;
    this.close();
    for (const worker of workers) worker.onBroken?.(reason);
    onDeath?.(reason);
  }

  /** Remove the frame: its workers, and whatever they were doing, go with it. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#pingTimer);
    removeEventListener('message', this.#onWindowMessage);
    this.#echo.port1.close();
    for (const arrived of this.#arrivals.splice(0)) arrived();
    this.#workers.clear();
    this.#iframe.remove();
  }

  get closed(): boolean {
    return this.#closed;
  }

  #broken(id: number, reason: string): void {
    const worker = this.#workers.get(id);
    if (!worker) return;
    this.#workers.delete(id);
    this.#send({ t: 'end', id });
    worker.onBroken?.(reason);
  }

  #send(message: unknown, transfer: Transferable[] = []): void {
    if (this.#closed) return;
    if (this.#outbox) this.#outbox.push({ message, transfer });
    else this.#iframe.contentWindow?.postMessage(message, '*', transfer);
  }
}

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
