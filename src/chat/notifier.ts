/**
 * When a chat's subscribers hear of changes: once per `schedule` (by default the next animation
 * frame), and only when the snapshot is a new one by then.
 */
import type { ChatSnapshot } from './types';

export class Notifier {
  readonly #schedule: (notify: () => void) => void;
  readonly #snapshot: () => ChatSnapshot;
  readonly #listeners = new Set<() => void>();
  #scheduled = false;
  #notified: ChatSnapshot;

  constructor(schedule: ((notify: () => void) => void) | undefined, snapshot: () => ChatSnapshot) {
    this.#schedule = schedule ?? nextFrame;
    this.#snapshot = snapshot;
    this.#notified = snapshot();
  }

  /** Returns the unsubscribe. */
  subscribe(listener: () => void): () => void {
    // Its own entry: the same function subscribed twice is heard twice, and each unsubscribe takes one.
    const entry = () => listener();
    this.#listeners.add(entry);
    return () => void this.#listeners.delete(entry);
  }

  /** The state changed: the listeners hear of it when the schedule says. */
  changed(): void {
    if (this.#scheduled) return;
    this.#scheduled = true;
    this.#schedule(() => {
      this.#scheduled = false;
      const snapshot = this.#snapshot();
      if (snapshot === this.#notified) return;
      this.#notified = snapshot;
      for (const listener of [...this.#listeners]) {
        try {
          listener();
        } catch (error) {
          // A listener's bug is reported, and the others still hear.
          queueMicrotask(() => {
            throw error;
          });
        }
      }
    });
  }
}

/**
 * The default schedule: the next animation frame on a page, or 100 ms later when no frame comes
 * first (a hidden tab draws none; a loaded machine can hold them back for seconds); the next
 * macrotask where there are no frames (Node).
 */
function nextFrame(notify: () => void): void {
  if (typeof requestAnimationFrame !== 'function') {
    setTimeout(notify, 0);
    return;
  }
  let frame = 0;
  const timer = setTimeout(() => {
    cancelAnimationFrame(frame);
    notify();
  }, 100);
  frame = requestAnimationFrame(() => {
    clearTimeout(timer);
    notify();
  });
}
