/**
 * A worker in a process of its own: a `sandbox="allow-scripts"` iframe (an opaque origin: no
 * storage, cookies or DOM of the app; Chromium gives such frames a process apart from the page's)
 * whose Content-Security-Policy the caller writes, and inside it a worker made from a blob, which
 * inherits that policy. The page talks to the worker over a MessagePort it hands in, and to the
 * frame only to see that it is alive: a frame whose process died (out of memory) says nothing,
 * so it is pinged while watched.
 */

/**
 * The frame's own script: start the worker from the source it is sent, hand it the port (at once,
 * or once the worker says it has loaded what it runs), answer pings.
 */
function frameMain(): void {
  let started = false;
  addEventListener('message', (event: MessageEvent) => {
    if (event.source !== parent) return;
    const m = event.data as { t?: string; source?: string; announces?: boolean; n?: number };
    if (m?.t === 'ping') parent.postMessage({ t: 'pong', n: m.n }, '*');
    else if (m?.t === 'init' && !started && typeof m.source === 'string' && event.ports[0]) {
      started = true;
      const port = event.ports[0];
      const url = URL.createObjectURL(new Blob([m.source], { type: 'text/javascript' }));
      const worker = new Worker(url);
      const broken = (reason: string) => parent.postMessage({ t: 'broken', reason }, '*');
      worker.onerror = (e) => broken(e.message ? `its worker failed: ${e.message}` : 'its worker failed to start');
      if (!m.announces) {
        worker.postMessage('port', [port]);
        return;
      }
      worker.onmessage = (e: MessageEvent) => {
        const said = e.data as { loaded?: boolean; failed?: string };
        if (said?.loaded) worker.postMessage('port', [port]);
        else if (typeof said?.failed === 'string') broken(`its worker could not load its script: ${said.failed}`);
        worker.onmessage = null;
      };
    }
  });
  parent.postMessage({ t: 'loaded' }, '*');
}

const PING_MS = 250;

export interface SandboxedFrameOptions {
  /**
   * The worker's code, a classic script. With `announces`, it first posts `{ loaded: true }` (or
   * `{ failed: reason }`) once what it runs is loaded, and only then gets the port; what it loads
   * by URL comes to the frame's opaque origin, so with CORS.
   */
  worker: { source: string; announces?: boolean };
  /** The frame's Content-Security-Policy (its worker inherits it). */
  csp: string;
  /** The frame's title, for the accessibility tree (the frame itself is hidden). */
  title: string;
}

export class SandboxedFrame {
  /** The page's end of the channel to the worker (the worker receives the other with a 'port' message). */
  readonly port: MessagePort;
  readonly #iframe: HTMLIFrameElement;
  readonly #onWindowMessage: (event: MessageEvent) => void;
  #lastPong = 0;
  /** The frame's script has run: from then on, silence means death. */
  #loaded = false;
  #pingTimer: ReturnType<typeof setInterval> | undefined;
  #closed = false;
  /** Called once, with the reason, when the frame breaks or stops answering; it is closed first. */
  onDeath: ((reason: string) => void) | undefined;

  constructor(options: SandboxedFrameOptions) {
    const channel = new MessageChannel();
    this.port = channel.port1;
    const iframe = document.createElement('iframe');
    iframe.setAttribute('sandbox', 'allow-scripts');
    iframe.setAttribute('aria-hidden', 'true');
    iframe.setAttribute('tabindex', '-1');
    iframe.title = options.title;
    iframe.style.cssText = 'position:absolute;width:0;height:0;border:0;visibility:hidden';
    iframe.srcdoc = `<!doctype html><meta http-equiv="Content-Security-Policy" content="${escapeAttribute(options.csp)}"><script>(${frameMain.toString()})()</script>`;
    this.#iframe = iframe;
    this.#onWindowMessage = (event) => {
      if (event.source !== iframe.contentWindow || event.source === null) return;
      const m = event.data as { t?: string; reason?: string };
      if (m?.t === 'pong') this.#lastPong = performance.now();
      else if (m?.t === 'loaded' && !this.#loaded) {
        this.#loaded = true;
        this.#lastPong = performance.now();
        iframe.contentWindow?.postMessage({ t: 'init', ...options.worker }, '*', [channel.port2]);
      } else if (m?.t === 'broken') this.#die(String(m.reason));
    };
    addEventListener('message', this.#onWindowMessage);
    (document.body ?? document.documentElement).append(iframe);
  }

  /**
   * Watch that the frame's process is alive (a crashed frame says nothing): pinged every 250 ms,
   * dead after `deadMs` without an answer, counted from when its script ran (a process slow to
   * start is the caller's start timeout to judge).
   */
  watch(on: boolean, deadMs = 2_000): void {
    clearInterval(this.#pingTimer);
    this.#pingTimer = undefined;
    if (!on || this.#closed) return;
    this.#lastPong = performance.now();
    let n = 0;
    this.#pingTimer = setInterval(() => {
      if (this.#loaded && performance.now() - this.#lastPong > deadMs) {
        this.#die('its process stopped answering (out of memory, most likely)');
        return;
      }
      this.#iframe.contentWindow?.postMessage({ t: 'ping', n: ++n }, '*');
    }, PING_MS);
  }

  /** The frame failed: closed, then `onDeath` is told why (once). */
  die(reason: string): void {
    this.#die(reason);
  }

  #die(reason: string): void {
    if (this.#closed) return;
    const onDeath = this.onDeath;
    this.close();
    onDeath?.(reason);
  }

  /** Remove the frame: its worker, and whatever it was doing, go with it. */
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

function escapeAttribute(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}
