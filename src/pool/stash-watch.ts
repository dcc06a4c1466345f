import type { OutBatch } from './protocol';
import type { WorkerHandle } from './worker-handle';

/**
 * While calls run on workers with a result stash, look into the stashes now and then: what a
 * worker finished and could not post (a call after it holds the thread) is delivered then, not
 * when that call's time runs out. Stops itself once no worker has calls.
 */
export class StashWatch {
  readonly #everyMs: number;
  readonly #workers: () => Iterable<WorkerHandle>;
  readonly #deliver: (worker: WorkerHandle, found: OutBatch) => void;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    everyMs: number,
    workers: () => Iterable<WorkerHandle>,
    deliver: (worker: WorkerHandle, found: OutBatch) => void,
  ) {
    this.#everyMs = everyMs;
    this.#workers = workers;
    this.#deliver = deliver;
  }

  /** Calls went to `worker`: watch, if it has a stash. */
  watch(worker: WorkerHandle): void {
    if (this.#timer === undefined && worker.stashes) this.#timer = setInterval(() => this.#look(), this.#everyMs);
  }

  stop(): void {
    clearInterval(this.#timer);
    this.#timer = undefined;
  }

  #look(): void {
    let running = false;
    for (const worker of this.#workers()) {
      if (worker.dead || worker.retiring || worker.calls.size === 0) continue;
      running = true;
      const found = worker.peekStashed();
      if (found.length > 0) this.#deliver(worker, found);
    }
    if (!running) this.stop();
  }
}
