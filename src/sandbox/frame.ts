/**
 * The seal: a `sandbox="allow-scripts"` iframe (an opaque origin: no storage, cookies or DOM of
 * the app; Chromium gives such frames a process of their own) whose Content-Security-Policy
 * allows scripts and nothing else (no fetch, XHR, WebSocket, EventSource, import of URLs),
 * and inside it a worker made from a blob, which inherits that policy. The page talks to the
 * worker over a MessagePort it hands in; it talks to the frame only to see that it is alive.
 */
import { SandboxCrashedError } from '../errors/sandbox-crashed-error';
import { workerSource } from './runtime';

/** Nothing but inline script (the frame's own), eval (the code) and blob workers. */
export const SANDBOX_CSP =
  "default-src 'none'; script-src 'unsafe-inline' 'unsafe-eval' blob:; worker-src blob:; base-uri 'none'; form-action 'none'";

/** The frame's own script: start the worker from the source it is sent, hand it the port, answer pings. */
function frameMain(): void {
  let started = false;
  addEventListener('message', (event: MessageEvent) => {
    if (event.source !== parent) return;
    const m = event.data as { t?: string; source?: string; n?: number };
    if (m?.t === 'ping') parent.postMessage({ t: 'pong', n: m.n }, '*');
    else if (m?.t === 'init' && !started && typeof m.source === 'string' && event.ports[0]) {
      started = true;
      const url = URL.createObjectURL(new Blob([m.source], { type: 'text/javascript' }));
      const worker = new Worker(url);
      worker.onerror = () => parent.postMessage({ t: 'broken', reason: 'the worker failed to start' }, '*');
      worker.postMessage('port', [event.ports[0]]);
    }
  });
  parent.postMessage({ t: 'loaded' }, '*');
}

const SRCDOC = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${SANDBOX_CSP}"><script>(${frameMain.toString()})()</script>`;

const PING_MS = 250;

export class SandboxFrame {
  readonly port: MessagePort;
  readonly ready: Promise<void>;
  readonly #iframe: HTMLIFrameElement;
  readonly #onWindowMessage: (event: MessageEvent) => void;
  #lastPong = 0;
  #pingTimer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  readonly #failStart: (error: Error) => void;
  /** Called once when the frame stops answering or breaks. */
  onDeath: ((error: SandboxCrashedError) => void) | undefined;

  constructor(startTimeoutMs: number) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('aria-hidden', 'true');
    iframe.setAttribute('tabindex', '-1');
    iframe.title = 'Moat code sandbox';
    iframe.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden';
    iframe.srcdoc = SRCDOC;
    this.#iframe = iframe;
    let settle: { resolve: () => void; reject: (e: Error) => void } | undefined;
    this.ready = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    this.ready.catch(() => {});
    const timer = setTimeout(
      () => this.#die(new SandboxCrashedError({ reason: `it did not start within ${startTimeoutMs} ms` })),
      startTimeoutMs,
    );
    this.#onWindowMessage = (event) => {
      if (event.source !== iframe.contentWindow || event.source === null) return;
      const m = event.data as { t?: string; reason?: string };
      if (m?.t === 'pong') this.#lastPong = performance.now();
      else if (m?.t === 'loaded')
        iframe.contentWindow?.postMessage({ t: 'init', source: workerSource() }, '*', [channel.port2]);
      else if (m?.t === 'broken') this.#die(new SandboxCrashedError({ reason: String(m.reason) }));
    };
    addEventListener('message', this.#onWindowMessage);
    this.port.onmessage = (event) => {
      if ((event.data as { t?: string })?.t !== 'ready') return;
      clearTimeout(timer);
      settle?.resolve();
    };
    this.#failStart = (error) => {
      clearTimeout(timer);
      settle?.reject(error);
    };
    (document.body ?? document.documentElement).append(iframe);
  }

  /** Watch that the frame's process is alive while a script runs (a crashed frame says nothing). */
  watch(on: boolean, deadMs = 2_000): void {
    clearInterval(this.#pingTimer);
    this.#pingTimer = undefined;
    if (!on || this.#closed) return;
    this.#lastPong = performance.now();
    let n = 0;
    this.#pingTimer = setInterval(() => {
      if (performance.now() - this.#lastPong > deadMs) {
        this.#die(new SandboxCrashedError({ reason: 'its process stopped answering (out of memory, most likely)' }));
        return;
      }
      this.#iframe.contentWindow?.postMessage({ t: 'ping', n: ++n }, '*');
    }, PING_MS);
  }

  #die(error: SandboxCrashedError): void {
    if (this.#closed) return;
    const onDeath = this.onDeath;
    this.close();
    this.#failStart(error);
    onDeath?.(error);
  }

  /** Remove the frame: its worker, and whatever the script was doing, go with it. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#pingTimer);
    removeEventListener('message', this.#onWindowMessage);
    this.port.onmessage = null;
    this.port.close();
    this.#iframe.remove();
  }

  get closed(): boolean {
    return this.#closed;
  }
}
