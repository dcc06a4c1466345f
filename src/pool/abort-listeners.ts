/**
 * One `abort` listener per signal, however many calls share it. A model turn's calls all carry
 * the turn's signal; a listener each would cost an add and a remove per call (about 2 µs each in
 * Chromium), and the signal's listener list would grow with the turn.
 */
export class AbortListeners<T> {
  readonly #groups = new Map<AbortSignal, { members: Set<T>; listener: () => void }>();
  readonly #onAbort: (member: T, reason: unknown) => void;

  constructor(onAbort: (member: T, reason: unknown) => void) {
    this.#onAbort = onAbort;
  }

  /** Call `onAbort(member, reason)` when `signal` aborts, unless `remove`d first. */
  add(signal: AbortSignal, member: T): void {
    let group = this.#groups.get(signal);
    if (!group) {
      const members = new Set<T>();
      const listener = () => {
        this.#groups.delete(signal);
        for (const m of members) this.#onAbort(m, signal.reason);
      };
      signal.addEventListener('abort', listener, { once: true });
      group = { members, listener };
      this.#groups.set(signal, group);
    }
    group.members.add(member);
  }

  remove(signal: AbortSignal, member: T): void {
    const group = this.#groups.get(signal);
    if (!group?.members.delete(member) || group.members.size > 0) return;
    signal.removeEventListener('abort', group.listener);
    this.#groups.delete(signal);
  }
}
