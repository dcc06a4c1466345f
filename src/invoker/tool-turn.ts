import { describeValue, MoatError } from '../errors/moat-error';
import { ToolOutputError } from '../errors/tool-output-error';
import { isPlainObject } from '../json/json-value';
import { toolMessage } from '../messages/constructors';
import { mediaProblem } from '../messages/message-json';
import type { InvalidToolCall, ToolCall, ToolMessage } from '../messages/types';
import type { TurnBudget } from '../pool/output-budget';
import type { ToolSpec } from '../providers/tool-spec';
import { mergeUpdates, type StateUpdate } from './state-merge';
import type { Reducer, RunOptions, RunResult, ToolEvent, ToolOutcome } from './types';

type Runner = (call: ToolCall, state: unknown) => Promise<ToolOutcome>;

/** What one call of a turn has come to so far (see `ToolTurn.sofar`). */
export interface CallSoFar {
  call: ToolCall;
  /** Its message, when it settled with one (a result, or an error text the model reads). */
  message?: ToolMessage;
  /** It was handed to its tool (it may have run, in part, even without a message). */
  started: boolean;
}

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
  /**
   * A runner for this turn's calls (interceptors, inline or pool), made once the specs are known;
   * what they send back is charged to `budget`.
   */
  runner(
    specs: Map<string, ToolSpec>,
    options: RunOptions,
    emit: (event: ToolEvent) => void,
    budget: TurnBudget,
  ): Runner;
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
  /** What the turn's calls sent back (`maxTurnSize`): its own, or the turn of the page tool whose calls these are. */
  readonly #budget: TurnBudget;
  readonly #emit: (event: ToolEvent) => void;
  readonly #listening: boolean;
  readonly #calls: ToolCall[] = [];
  readonly #messages: (ToolMessage | undefined)[] = [];
  readonly #updates: (StateUpdate | undefined)[] = [];
  readonly #thrown: { index: number; error: Error }[] = [];
  readonly #invalid: InvalidToolCall[] = [];
  readonly #started: boolean[] = [];
  /** Calls added and not settled yet; `close` waits for none. */
  #outstanding = 0;
  #whenSettled: Promise<void> | undefined;
  #allSettled: (() => void) | undefined;
  /** Calls waiting for the specs or for a free slot: their index. */
  readonly #queue: number[] = [];
  #run: Runner | undefined;
  #specsError: { error: unknown } | undefined;
  #loading = false;
  #active = 0;
  #closed = false;

  constructor(host: TurnHost, options: RunOptions, state: Record<string, unknown>, budget: TurnBudget = { used: 0 }) {
    this.#host = host;
    this.#options = options;
    this.#state = state;
    this.#budget = budget;
    this.#listening = options.onEvent !== undefined;
    this.#emit = options.onEvent ?? noEvents;
    const specs = host.loaded();
    if (specs) this.#run = host.runner(specs, options, this.#emit, budget);
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
    this.#started.push(false);
    this.#outstanding++;
    if (this.#run && this.#active < this.#host.maxConcurrency) {
      this.#active++;
      this.#runOne(i);
    } else {
      this.#queue.push(i);
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
    if (this.#outstanding > 0) {
      this.#whenSettled ??= new Promise<void>((resolve) => {
        this.#allSettled = resolve;
      });
      await this.#whenSettled;
    }
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

  /**
   * Each call added, with what it came to so far, and the state with the updates of the calls
   * that succeeded: what a turn that was stopped (aborted) leaves. Throws `StateMergeError`
   * when those updates conflict.
   */
  sofar(): { calls: CallSoFar[]; state: Record<string, unknown> } {
    const calls = this.#calls.map((call, i) => {
      const message = this.#messages[i];
      return message ? { call, message, started: true } : { call, started: this.#started[i] === true };
    });
    const updates = this.#updates.filter((u): u is StateUpdate => u !== undefined);
    return { calls, state: mergeUpdates(this.#state, updates, this.#host.reducers) };
  }

  /** A call is over (run, or never to run): one fewer to wait for. */
  #settle(): void {
    if (--this.#outstanding === 0) this.#allSettled?.();
  }

  #drain(): void {
    while (this.#run && this.#active < this.#host.maxConcurrency && this.#queue.length > 0) {
      this.#active++;
      this.#runOne(this.#queue.shift() as number);
    }
  }

  #load(): void {
    if (this.#run || this.#loading) return;
    this.#loading = true;
    this.#host.loadSpecs().then(
      (specs) => {
        this.#run = this.#host.runner(specs, this.#options, this.#emit, this.#budget);
        this.#drain();
      },
      (error: unknown) => {
        this.#specsError = { error };
        for (const _ of this.#queue.splice(0)) this.#settle();
      },
    );
  }

  /** One call, start to end; its outcome is recorded, then its slot goes to the next waiting. */
  #runOne(i: number): void {
    const call = this.#calls[i] as ToolCall;
    this.#started[i] = true;
    if (this.#listening) this.#emit({ type: 'tool-started', toolCallId: call.id, name: call.name, args: call.args });
    const over = () => {
      this.#active--;
      this.#settle();
      this.#drain();
    };
    let running: Promise<ToolOutcome>;
    try {
      running = (this.#run as Runner)(call, this.#state);
    } catch (error) {
      running = Promise.reject(error);
    }
    running.then(
      (outcome) => {
        try {
          this.#succeeded(i, call, outcome);
        } catch (error) {
          this.#failed(i, call, error);
        }
        over();
      },
      (error: unknown) => {
        this.#failed(i, call, error);
        over();
      },
    );
  }

  /** Everything that can fail is checked before anything is recorded: a failed call leaves no update. */
  #succeeded(i: number, call: ToolCall, outcome: ToolOutcome): void {
    const message = toMessage(call, outcome);
    const output = outcome.kind === 'json' ? parseOutput(call, outcome.content) : outcome.content;
    this.#messages[i] = message;
    if (outcome.update) this.#updates[i] = { toolCallId: call.id, update: outcome.update };
    if (this.#listening) this.#emit({ type: 'tool-finished', toolCallId: call.id, name: call.name, output, message });
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

/**
 * The value of a result that says its content is JSON. A worker may say so of text that is not
 * (it is untrusted): that fails its call, typed, even when no one reads the value.
 */
function parseOutput(call: ToolCall, content: string): unknown {
  try {
    return JSON.parse(content);
  } catch (error) {
    throw new ToolOutputError({
      toolName: call.name,
      toolCallId: call.id,
      reason: `it says its content is JSON, and it is not (${(error as Error).message})`,
      cause: error,
    });
  }
}

function toMessage(call: ToolCall, outcome: ToolOutcome): ToolMessage {
  if (typeof outcome?.content !== 'string') {
    throw new MoatError({
      message: `An interceptor returned ${describeValue(outcome)} for call ${call.id}: expected { content: string }`,
    });
  }
  const media = outcome.media ?? [];
  const issue = mediaProblem(media);
  if (issue)
    throw new ToolOutputError({
      toolName: call.name,
      toolCallId: call.id,
      reason: `its images and files are not usable (${issue.path ? `media.${issue.path.join('.')}: ` : ''}${issue.message})`,
    });
  const message: ToolMessage = {
    role: 'tool',
    toolCallId: call.id,
    name: call.name,
    content:
      media.length === 0
        ? outcome.content
        : [...(outcome.content === '' ? [] : [{ type: 'text' as const, text: outcome.content }]), ...media],
    status: outcome.status ?? 'success',
  };
  if (outcome.artifact !== undefined) message.artifact = outcome.artifact;
  return message;
}
