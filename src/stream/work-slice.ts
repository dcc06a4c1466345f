/**
 * How long a stream's reader may work before the page gets to run. A stream whose input is
 * already there (a fast local model, a reply replayed from memory, a network that outran the
 * page) resolves read after read as microtasks, and microtasks never end a task: 50 MB of tool
 * arguments decoded in one go held a page for seconds, no frame drawn, no click heard. So the
 * reader watches the clock and, once it has worked a slice, lets the page run before it goes on.
 */

/** A slice of work: under the 50 ms a browser calls a long task, far above what a yield costs. */
export const SLICE_MS = 25;

export class WorkSlice {
  /** When the slice began (-1: it begins at the next question). */
  #start = -1;

  /** True when the slice is used up: time to yield. */
  get spent(): boolean {
    const now = performance.now();
    if (this.#start < 0) this.#start = now;
    return now - this.#start > SLICE_MS;
  }

  /** The page ran meanwhile (a read waited a slice or more for its input): a new slice begins. */
  restart(): void {
    this.#start = -1;
  }

  /** Let the page run (what follows is a task of its own), then begin a new slice. */
  async yield(): Promise<void> {
    await yieldToPage();
    this.#start = -1;
  }
}

/**
 * End the current task and go on in a new one: `scheduler.yield()` where there is one (it goes
 * on before other queued work of its kind), else a message to itself, which no timer clamps
 * and no test's fake timers hold back.
 */
function yieldToPage(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    const { port1, port2 } = new MessageChannel();
    port1.onmessage = () => {
      port1.close();
      resolve();
    };
    port2.postMessage(null);
  });
}
