/**
 * What the pool's workers serve, and what the page lets them do: the tools' descriptors, asked
 * of one worker, checked and kept; the part of the caller's state each tool declared, so that a
 * call carries only that part; and the page's grants (`createWorkerPool({ grants })`).
 *
 * A worker's description of its tools is untrusted: a dependency in the tools' bundle can change
 * what the worker says (an accessor on `Object.prototype` swallowed its `needsApproval` and
 * `store` fields). So what it says is read field by field into fresh objects, and what is
 * enforced comes from the page: a tool needs approval when the page's grant or the tool's own
 * declaration says so (the module can add an approval, never remove one), and the store serves
 * a module only the namespaces the page granted its tools.
 */
import { describeValue, MoatError } from '../errors/moat-error';
import { PoolClosedError } from '../errors/pool-closed-error';
import { isPlainObject } from '../json/json-value';
import { validateToolSpec } from '../providers/tool-spec';
import { checkNamespace } from '../store/validate';
import { startFailure } from './call-checks';
import type { Grants } from './pool-options';
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
  readonly #grants: Grants;
  #descriptors: Promise<ToolDescriptor[]> | undefined;
  /**
   * Once the descriptors are known: what state each tool declared. A tool is then sent only
   * that part (nothing, one field, or all); until then the worker picks it from the whole.
   */
  #declaredState: Map<string, ToolDescriptor['state']> | undefined;

  /**
   * `pick` gives the worker to ask (an idle one, or a new one); `closed` says the pool is closed;
   * `grants` are the page's.
   */
  constructor(pick: () => Describer, closed: () => boolean, grants: Grants = new Map()) {
    this.#pick = pick;
    this.#closed = closed;
    this.#grants = grants;
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
   * The store namespaces the page granted the module's tools, all together (they share a realm):
   * undefined when one was granted `'all'`, the whole database; empty when none was granted any.
   */
  async storeNamespaces(): Promise<string[][] | undefined> {
    const namespaces: string[][] = [];
    for (const { spec } of await this.descriptors()) {
      const granted = this.#grants.get(spec.name)?.store;
      if (granted === 'all') return undefined;
      if (granted) namespaces.push(...granted);
    }
    return namespaces;
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
      (answer) => {
        let descriptors: ToolDescriptor[];
        try {
          descriptors = withGrants(readDescriptors(answer), this.#grants);
        } catch (error) {
          this.#descriptors = undefined;
          throw MoatError.isInstance(error) || error instanceof TypeError ? error : startFailure(error);
        }
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

/** The most tools one module may describe (a hostile worker could describe millions). */
const MAX_TOOLS = 1_000;

/**
 * A worker's answer to `describe`, read field by field into fresh objects: only what the
 * protocol names is kept, each of its type. Throws an Error saying what could not be read, or
 * the spec's `InvalidToolSpecError`.
 */
export function readDescriptors(answer: unknown): ToolDescriptor[] {
  const fail = (what: string): never => {
    throw new Error(`the tools' description could not be read: ${what}`);
  };
  if (!Array.isArray(answer)) return fail(`expected a list, got ${describeValue(answer)}`);
  if (answer.length > MAX_TOOLS) fail(`${answer.length} tools, more than ${MAX_TOOLS}`);
  const names = new Set<string>();
  return answer.map((d: unknown, i): ToolDescriptor => {
    if (!isPlainObject(d)) return fail(`tool ${i} is ${describeValue(d)}`);
    const s = validateToolSpec(d.spec);
    if (names.has(s.name)) fail(`two tools are named '${s.name}'`);
    names.add(s.name);
    const spec: ToolDescriptor['spec'] = { name: s.name, description: s.description, inputSchema: s.inputSchema };
    if (s.outputSchema !== undefined) {
      if (!isPlainObject(s.outputSchema)) fail(`'${s.name}' has an output schema that is not an object`);
      spec.outputSchema = s.outputSchema;
    }
    if (s.needsApproval === true) spec.needsApproval = true;
    if (s.readOnly === true) spec.readOnly = true;
    const descriptor: ToolDescriptor = { spec };
    const { state, store, idempotent } = d as Partial<Record<keyof ToolDescriptor, unknown>>;
    if (state !== undefined) {
      if (isPlainObject(state) && state.whole === true) descriptor.state = { whole: true };
      else if (isPlainObject(state) && typeof state.field === 'string') descriptor.state = { field: state.field };
      else fail(`'${s.name}' declares its state as ${describeValue(state)}`);
    }
    if (store !== undefined) {
      const namespaces = isPlainObject(store) ? store.namespaces : undefined;
      if (!Array.isArray(namespaces)) return fail(`'${s.name}' declares its store as ${describeValue(store)}`);
      try {
        descriptor.store = { namespaces: namespaces.map((ns) => [...checkNamespace(ns)]) };
      } catch (error) {
        fail(`'${s.name}' declares store namespaces that are not: ${(error as Error).message}`);
      }
    }
    if (idempotent === true) descriptor.idempotent = true;
    return descriptor;
  });
}

/**
 * The descriptors as the page enforces them: a tool needs approval when its grant or its own
 * declaration says so. A grant for a tool the module does not serve is a TypeError (a misspelt
 * name would leave the tool it meant unapproved). Warns, once per description, of namespaces a
 * tool declares and was not granted: its store calls will be refused.
 */
export function withGrants(descriptors: ToolDescriptor[], grants: Grants): ToolDescriptor[] {
  const served = new Set(descriptors.map((d) => d.spec.name));
  const unknown = [...grants.keys()].filter((name) => !served.has(name));
  if (unknown.length > 0)
    throw new TypeError(
      `createWorkerPool's \`grants\` name ${unknown.map((n) => `'${n}'`).join(', ')}, which the tools module does not serve (it serves ${[...served].map((n) => `'${n}'`).join(', ') || 'nothing'})`,
    );
  for (const d of descriptors) {
    const grant = grants.get(d.spec.name);
    if (grant?.needsApproval) d.spec.needsApproval = true;
    const declared = d.store?.namespaces ?? [];
    const granted = grant?.store ?? [];
    const missing = granted === 'all' ? [] : declared.filter((ns) => !covers(granted, ns));
    if (missing.length > 0)
      console.warn(
        `moat: tool '${d.spec.name}' declares store namespaces the page did not grant it; its store calls there will be refused. Grant them: createWorkerPool({ grants: { ${d.spec.name}: { store: ${JSON.stringify(missing)} } } })`,
      );
  }
  return descriptors;
}

/** True when a granted prefix covers the namespace. */
function covers(granted: readonly string[][], namespace: readonly string[]): boolean {
  return granted.some(
    (prefix) => prefix.length <= namespace.length && prefix.every((label, i) => label === namespace[i]),
  );
}
