import { describeValue, MoatError } from '../errors/moat-error';
import { isPlainObject } from '../json/json-value';
import { toolMessage } from '../messages/constructors';
import type { InvalidToolCall, ToolCall, ToolMessage } from '../messages/types';
import type { ToolSpec } from '../providers/tool-spec';
import { mergeUpdates, type StateUpdate } from './state-merge';
import type { Reducer, RunOptions, RunResult, ToolEvent, ToolOutcome } from './types';

type Runner = (call: ToolCall, state: unknown) => Promise<ToolOutcome>;

/** Sibling results of a turn, on the error `run` rejects with under `onError: 'throw'`. */
export interface WithTurnResults {
  /** One per call, in call order; undefined where the call failed. */
  messages: (ToolMessage | undefined)[];
}

/** What a turn needs from its invoker: the tools, how to run one call, what a failure becomes. */
export interface TurnHost {
  /** The specs once loaded (a turn then starts calls without waiting a tick). */
  loaded(): Map<string, ToolSpec> | undefined;
  loadSpecs(): Promise<Map<string, ToolSpec>>;
  /** A runner for this turn's calls (interceptors, inline or pool), made once the specs are known. */
  runner(specs: Map<string, ToolSpec>, options: RunOptions, emit: (event: ToolEvent) => void): Runner;
  /** The model's text for a failed call, or undefined when the error must be thrown. */
  errorText(error: Error, call: ToolCall): string | undefined;
  invalidMessage(bad: InvalidToolCall, emit: (event: ToolEvent) => void): ToolMessage;
  readonly reducers: Record<string, Reducer>;
  readonly maxConcurrency: number;
}

/**
 * One turn of tool calls whose calls may arrive one by one (while the model still streams):
 * each starts the moment it is added, at most `maxConcurrency` at once; `close` waits for them
 * all and gives one `ToolMessage` per call, in the order they were added (invalid calls after),
 * with the state updates merged. Per call: `tool-started` → deltas → `tool-finished` or
 * `tool-error`, exactly once.
 *
 * @example
 * const turn = invoker.begin({ state, signal, onEvent: render });
 * for await (const part of modelStream) if (part.type === 'tool-call') turn.add(part.toolCall);
 * const { messages, state: next } = await turn.close();
 */
export class ToolTurn {
  readonly #host: TurnHost;
  readonly #options: RunOptions;
  readonly #state: Record<string, unknown>;
  readonly #emit: (event: ToolEvent) => void;
  readonly #listening: boolean;
  readonly #calls: ToolCall[] = [];
  readonly #messages: (ToolMessage | undefined)[] = [];
  readonly #updates: (StateUpdate | undefined)[] = [];
  readonly #thrown: { index: number; error: Error }[] = [];
  readonly #invalid: InvalidToolCall[] = [];
  readonly #settled: Promise<void>[] = [];
  /** Calls waiting for the specs or for a free slot: their index and what settles them. */
  readonly #queue: [number, () => void][] = [];
  #run: Runner | undefined;
  #specsError: { error: unknown } | undefined;
  #loading = false;
  #active = 0;
  #closed = false;

  constructor(host: TurnHost, options: RunOptions, state: Record<string, unknown>) {
    this.#host = host;
    this.#options = options;
    this.#state = state;
    this.#listening = options.onEvent !== undefined;
    this.#emit = options.onEvent ?? noEvents;
    const specs = host.loaded();
    if (specs) this.#run = host.runner(specs, options, this.#emit);
  }

  /** The calls added so far. */
  get size(): number {
    return this.#calls.length;
  }

  /** Start a call now (or as soon as the tools are known and a slot is free). */
  add(call: ToolCall): void {
    if (this.#closed) throw new TypeError('This turn is closed: add calls before close()');
    if (
      !isPlainObject(call) ||
      typeof call.id !== 'string' ||
      typeof call.name !== 'string' ||
      !isPlainObject(call.args)
    )
      throw new TypeError(`Expected a tool call { id, name, args }, got ${describeValue(call)}`);
    const i = this.#calls.length;
    this.#calls.push(call);
    this.#messages.push(undefined);
    this.#updates.push(undefined);
    if (this.#run && this.#active < this.#host.maxConcurrency) {
      this.#active++;
      this.#settled.push(this.#runOne(i).then(this.#release));
    } else {
      this.#settled.push(new Promise<void>((resolve) => this.#queue.push([i, resolve])));
      this.#load();
    }
  }

  /** A call the model made that cannot be run: an error message the model can act on, after the others. */
  addInvalid(bad: InvalidToolCall): void {
    if (this.#closed) throw new TypeError('This turn is closed: add calls before close()');
    this.#invalid.push(bad);
  }

  /**
   * No more calls: resolves when every call has settled. Rejects with the signal's reason when
   * aborted, with a typed error under `onError: 'throw'` (sibling results on its `messages`), and
   * with `StateMergeError`.
   */
  async close(): Promise<RunResult> {
    this.#closed = true;
    await Promise.all(this.#settled);
    if (this.#specsError) throw this.#specsError.error;
    const signal = this.#options.signal;
    if (signal?.aborted) throw signal.reason;
    const invalid = this.#invalid.map((bad) => this.#host.invalidMessage(bad, this.#emit));
    if (this.#thrown.length > 0) {
      const first = (this.#thrown.sort((a, b) => a.index - b.index)[0] as { error: Error }).error;
      throw Object.assign(first, { messages: [...this.#messages, ...invalid] } satisfies WithTurnResults);
    }
    const merged = mergeUpdates(
      this.#state,
      this.#updates.filter((u): u is StateUpdate => u !== undefined),
      this.#host.reducers,
    );
    const messages = [...(this.#messages as ToolMessage[]), ...invalid];
    this.#emit({ type: 'done', messages, state: merged });
    return { messages, state: merged };
  }

  readonly #release = (): void => {
    this.#active--;
    this.#drain();
  };

  #drain(): void {
    while (this.#run && this.#active < this.#host.maxConcurrency && this.#queue.length > 0) {
      const [i, settle] = this.#queue.shift() as [number, () => void];
      this.#active++;
      this.#runOne(i).then(() => {
        settle();
        this.#release();
      });
    }
  }

  #load(): void {
    if (this.#run || this.#loading) return;
    this.#loading = true;
    this.#host.loadSpecs().then(
      (specs) => {
        this.#run = this.#host.runner(specs, this.#options, this.#emit);
        this.#drain();
      },
      (error: unknown) => {
        this.#specsError = { error };
        for (const [, settle] of this.#queue.splice(0)) settle();
      },
    );
  }

  /** One call, start to end; never rejects (its outcome is recorded). */
  #runOne(i: number): Promise<void> {
    const call = this.#calls[i] as ToolCall;
    if (this.#listening) this.#emit({ type: 'tool-started', toolCallId: call.id, name: call.name, args: call.args });
    return (this.#run as Runner)(call, this.#state).then(
      (outcome) => {
        try {
          this.#succeeded(i, call, outcome);
        } catch (error) {
          this.#failed(i, call, error);
        }
      },
      (error: unknown) => this.#failed(i, call, error),
    );
  }

  #succeeded(i: number, call: ToolCall, outcome: ToolOutcome): void {
    const message = toMessage(call, outcome);
    this.#messages[i] = message;
    if (outcome.update) this.#updates[i] = { toolCallId: call.id, update: outcome.update };
    if (this.#listening) this.#emit({ type: 'tool-finished', toolCallId: call.id, message });
  }

  #failed(i: number, call: ToolCall, caught: unknown): void {
    const error = caught instanceof Error ? caught : new Error(String(caught));
    const text = this.#options.signal?.aborted ? undefined : this.#host.errorText(error, call);
    if (text === undefined) {
      this.#thrown.push({ index: i, error });
      this.#emit({ type: 'tool-error', toolCallId: call.id, error });
    } else {
      const message = toolMessage({ toolCallId: call.id, name: call.name, content: text, status: 'error' });
      this.#messages[i] = message;
      this.#emit({ type: 'tool-error', toolCallId: call.id, error, message });
    }
  }
}

function noEvents(): void {}

function toMessage(call: ToolCall, outcome: ToolOutcome): ToolMessage {
  if (typeof outcome?.content !== 'string') {
    throw new MoatError({
      message: `An interceptor returned ${describeValue(outcome)} for call ${call.id}: expected { content: string }`,
    });
  }
  const message: ToolMessage = {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content: outcome.content,
    status: outcome.status ?? 'success',
  };
  if (outcome.artifact !== undefined) message.artifact = outcome.artifact;
  return message;
}
