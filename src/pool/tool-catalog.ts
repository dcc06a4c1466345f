/**
 * What the pool's workers serve: the tools' descriptors, asked of one worker and kept, and the
 * part of the caller's state each tool declared, so that a call carries only that part.
 */
import { MoatError } from '../errors/moat-error';
import { PoolClosedError } from '../errors/pool-closed-error';
import { startFailure } from './call-checks';
import type { ToolDescriptor } from './protocol';

/** A worker, as far as asking it for descriptors goes. */
export interface Describer {
  describe(): Promise<ToolDescriptor[]>;
  /** It was stopped while it ran calls (a timeout, a crash): not for describing. */
  readonly stoppedBusy: boolean;
}

export class ToolCatalog {
  readonly #pick: () => Describer;
  readonly #closed: () => boolean;
  #descriptors: Promise<ToolDescriptor[]> | undefined;
  /**
   * Once the descriptors are known: what state each tool declared. A tool is then sent only
   * that part (nothing, one field, or all); until then the worker picks it from the whole.
   */
  #declaredState: Map<string, ToolDescriptor['state']> | undefined;

  /** `pick` gives the worker to ask (an idle one, or a new one); `closed` says the pool is closed. */
  constructor(pick: () => Describer, closed: () => boolean) {
    this.#pick = pick;
    this.#closed = closed;
  }

  /**
   * The descriptors, asked once and shared by every caller. A failure is not kept: the next
   * call asks again. Rejects with `PoolClosedError` once the pool is closed.
   */
  descriptors(): Promise<ToolDescriptor[]> {
    if (this.#closed()) return Promise.reject(new PoolClosedError());
    this.#descriptors ??= this.#describe(true);
    return this.#descriptors;
  }

  /**
   * The store namespaces the tools declared, all together; undefined when any tool declared
   * none (it may touch the whole store).
   */
  async storeNamespaces(): Promise<string[][] | undefined> {
    return storeLimits(await this.descriptors());
  }

  /** Ask again next time: the answer under way comes from workers that never started. */
  forget(): void {
    this.#descriptors = undefined;
  }

  /**
   * The part of the caller's state a tool is sent: what it declared, once that is known, so the
   * rest never reaches a worker (where every tool in that worker's realm could read it).
   */
  stateFor(name: string, state: unknown): unknown {
    if (!this.#declaredState?.has(name)) return state;
    const declared = this.#declaredState.get(name);
    if (declared === undefined) return undefined;
    if ('whole' in declared) return state;
    const { field } = declared;
    // As the worker picks it (an own property of any object); a computed key defines an own
    // property, even for '__proto__'.
    return typeof state === 'object' && state !== null && Object.hasOwn(state, field)
      ? { [field]: (state as Record<string, unknown>)[field] }
      : {};
  }

  #describe(mayRetry: boolean): Promise<ToolDescriptor[]> {
    const worker = this.#pick();
    return worker.describe().then(
      (descriptors) => {
        this.#declaredState = new Map(descriptors.map((d) => [d.spec.name, d.state]));
        return descriptors;
      },
      (error: unknown) => {
        if (this.#closed()) {
          this.#descriptors = undefined;
          throw new PoolClosedError();
        }
        // A worker stopped while it ran calls went down for one of them (a timeout, a crash),
        // not for describing: its replacement is asked, once.
        if (!MoatError.isInstance(error) && mayRetry && worker.stoppedBusy) return this.#describe(false);
        // The tools' own errors (a schema JSON Schema cannot express) come as they are.
        this.#descriptors = undefined;
        throw MoatError.isInstance(error) ? error : startFailure(error);
      },
    );
  }
}

/** What a realm of these tools may touch in the store: every tool's namespaces, or all (undefined). */
function storeLimits(descriptors: readonly ToolDescriptor[]): string[][] | undefined {
  if (descriptors.some((d) => !d.store)) return undefined;
  return descriptors.flatMap((d) => d.store?.namespaces ?? []);
}
