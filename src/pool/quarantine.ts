/**
 * Tools that recently timed out or crashed a worker, remembered for a while: their calls run on
 * a worker of their own (one call at a time), so a repeat offence costs only itself.
 */
export class Quarantine {
  readonly #until = new Map<string, number>();
  readonly #ms: number;

  /** `ms` 0: nothing is ever quarantined. */
  constructor(ms: number) {
    this.#ms = ms;
  }

  add(toolName: string): void {
    if (this.#ms > 0) this.#until.set(toolName, performance.now() + this.#ms);
  }

  has(toolName: string): boolean {
    if (this.#until.size === 0) return false;
    const until = this.#until.get(toolName);
    if (until === undefined) return false;
    if (until > performance.now()) return true;
    this.#until.delete(toolName);
    return false;
  }
}
