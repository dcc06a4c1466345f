import { describeValue } from '../errors/moat-error';
import { eventStream, followSignal } from '../invoker/event-stream';
import type { ToolInvoker } from '../invoker/tool-invoker';
import { type OutputOf, type OutputSchema, resolveOutput } from '../output/output-schema';
import type { ToolSet } from '../pool/pool-options';
import type { ToolSpec } from '../providers/tool-spec';
import type { ThreadSummary } from '../store/thread-summary';
import { agentParts, type RunRules } from './agent-options';
import { checkStreamOptions, newThreadId, readInput } from './input';
import { runOnThread } from './run-loop';
import type { StepAgent } from './step';
import { Thread } from './thread';
import { lockThread } from './thread-lock';
import type {
  AgentEvent,
  AgentInput,
  AgentOptions,
  AgentOutputResult,
  AgentResult,
  AgentStreamOptions,
  ThreadSnapshot,
} from './types';

/**
 * An agent: a model, tools in workers, and threads that survive a reload. One `for await` drives
 * the whole loop (model → tools → model …) and shows everything as it happens.
 *
 * @example
 * const agent = createAgent({ model: openAICompatible({ baseURL, model }), pool, checkpointer });
 * for await (const ev of agent.stream('What is 3 * 12?', { threadId, signal })) render(ev);
 * const { text } = await agent.run('And 2 + 2?', { threadId });
 * const { output } = await agent.run('Who wrote the first program?', { output: z.object({ name: z.string() }) });
 */
export function createAgent<S extends OutputSchema | undefined = undefined, Tools extends ToolSet = ToolSet>(
  options: AgentOptions<Tools> & { output?: S },
): Agent<S, Tools> {
  return new Agent(options);
}

/** What a run resolves with: with structured output (the run's or the agent's), `output` too. */
type RunResult<S> = S extends OutputSchema ? AgentOutputResult<OutputOf<S>> : AgentResult;
/** The structured output's type in the events: `unknown` without one. */
type EventOutput<S> = S extends OutputSchema ? OutputOf<S> : unknown;

/**
 * `S`: the agent's default structured output (`output` in its options), if any. `Tools`: its
 * pool's tools, when the pool is typed (`tool-finished` events narrow by tool name).
 */
export class Agent<S extends OutputSchema | undefined = undefined, Tools extends ToolSet = ToolSet> {
  /** The model, the tools, and what each step needs of them. */
  readonly #stepAgent: StepAgent;
  readonly #rules: RunRules;
  /** The checkpointer is the agent's own memory: its threads are this page's alone. */
  readonly #local: boolean;
  readonly #output: OutputSchema | undefined;

  constructor(options: AgentOptions<Tools>) {
    const parts = agentParts(options);
    this.#stepAgent = parts.step;
    this.#rules = parts.rules;
    this.#local = parts.local;
    this.#output = parts.output;
    // Start the workers now, while the person types: the first request needs their specs.
    this.#loadSpecs().catch(() => {});
  }

  /**
   * Whether its threads outlive the page: `true` with a `checkpointer`; without one they live in
   * the page's memory, and a reload forgets them.
   */
  get persistent(): boolean {
    return !this.#local;
  }

  /** What runs its tools (the one given, or the one it made over its `pool` and `tools`). */
  get invoker(): ToolInvoker | undefined {
    return this.#stepAgent.invoker;
  }

  /** The tools the model is offered. */
  async tools(): Promise<ToolSpec[]> {
    return [...(await this.#loadSpecs())];
  }

  /**
   * Run the loop and stream every event; the last is `finish` (or `error`). `break` cancels the
   * model request and the running tools; the thread keeps its last complete step, and the calls
   * of the step cut short that had started, with their results (none runs again). A run holds
   * its thread: another run on it, in this tab or another, waits its turn (`ifBusy`).
   */
  stream<O extends OutputSchema>(
    input: AgentInput,
    options: AgentStreamOptions & { output: O },
  ): AsyncIterable<AgentEvent<OutputOf<O>, Tools>>;
  stream(input: AgentInput, options?: AgentStreamOptions): AsyncIterable<AgentEvent<EventOutput<S>, Tools>>;
  stream(input: AgentInput, options: AgentStreamOptions = {}): AsyncIterable<AgentEvent> {
    return eventStream<AgentEvent>('The consumer stopped reading the agent', async (controller, emit) => {
      let unfollow = () => {};
      try {
        checkStreamOptions(options);
        unfollow = followSignal(options?.signal, controller);
        await this.#drive(input, options, controller.signal, emit);
      } catch (error) {
        emit({ type: 'error', error: error instanceof Error ? error : new Error(String(error)) });
      } finally {
        unfollow();
      }
    });
  }

  /**
   * The same run, resolved with what `finish` carries (`output` with structured output); rejects
   * with the `error` event's error (`OutputValidationError` for an answer that does not fit).
   */
  run<O extends OutputSchema>(
    input: AgentInput,
    options: AgentStreamOptions & { output: O },
  ): Promise<AgentOutputResult<OutputOf<O>>>;
  run(input: AgentInput, options?: AgentStreamOptions): Promise<RunResult<S>>;
  async run(input: AgentInput, options: AgentStreamOptions = {}): Promise<AgentResult> {
    for await (const event of this.stream(input, options)) {
      if (event.type === 'error') throw event.error;
      if (event.type === 'finish') {
        const { type: _finish, ...result } = event;
        return result;
      }
    }
    throw new Error('The agent stopped without finishing');
  }

  /**
   * A saved thread as a UI restores it (after a reload, say): its messages, state and the calls
   * that wait for a decision. `undefined` when the checkpointer has none by that id.
   */
  async thread(threadId: string): Promise<ThreadSnapshot | undefined> {
    if (typeof threadId !== 'string' || threadId === '')
      throw new TypeError(`Expected a thread id, got ${describeValue(threadId)}`);
    const thread = await Thread.load(this.#stepAgent.checkpointer, threadId);
    if (thread.savedAt === undefined) return undefined;
    return {
      threadId,
      messages: thread.messages,
      state: thread.state,
      pendingApprovals: thread.pending,
      updatedAt: thread.savedAt,
      totals: thread.totals,
      toolFailures: { ...thread.failures },
    };
  }

  /** The saved threads, the most recently written first. */
  threads(): Promise<ThreadSummary[]> {
    return this.#stepAgent.checkpointer.threads();
  }

  /** Forget a thread (all its checkpoints). */
  deleteThread(threadId: string): Promise<void> {
    return this.#stepAgent.checkpointer.delete(threadId);
  }

  /** The invoker's specs: its own list, the same until its tools change (an MCP server's did). */
  async #loadSpecs(): Promise<readonly ToolSpec[]> {
    return this.#stepAgent.invoker ? this.#stepAgent.invoker.specs() : [];
  }

  async #drive(
    input: AgentInput,
    options: AgentStreamOptions,
    signal: AbortSignal,
    emit: (event: AgentEvent) => void,
  ): Promise<void> {
    const parsed = await readInput(input);
    // Before the thread is held: zod/mini's JSON Schema converter may have to be loaded.
    const schema = options.output ?? this.#output;
    const output = schema === undefined ? undefined : await resolveOutput(schema);
    const { threadId } = options;
    const held = (thread: Thread) =>
      runOnThread(this.#stepAgent, this.#rules, { parsed, thread, options, output, signal, emit });
    if (options.save === false) {
      if ('approvals' in parsed)
        throw new TypeError(
          'Decisions on calls are saved with their thread: a run with `save: false` cannot take them',
        );
      // Nothing is written: no lock is needed, and a thread named is read as it stands.
      const thread =
        threadId === undefined
          ? Thread.fresh(newThreadId())
          : await Thread.load(this.#stepAgent.checkpointer, threadId);
      thread.saving = false;
      return held(thread);
    }
    if (threadId === undefined) {
      // A new thread: its lock is asked for now, before anyone can know its id (its first save),
      // so a run another tab starts on it later queues behind this one. The run need not wait
      // for the grant, and has nothing to load.
      const fresh = newThreadId();
      const taking = lockThread(fresh, { ifBusy: 'fail', local: this.#local });
      try {
        await held(Thread.fresh(fresh));
      } finally {
        taking.then((release) => release()).catch(() => {});
      }
      return;
    }
    // One run at a time per thread, across tabs: the next waits here (or fails, `ifBusy: 'fail'`).
    let release: () => void;
    try {
      release = await lockThread(threadId, { signal, ifBusy: options.ifBusy, local: this.#local });
    } catch (error) {
      if (!signal.aborted) throw error;
      release = () => {};
    }
    try {
      await held(await Thread.load(this.#stepAgent.checkpointer, threadId));
    } finally {
      release();
    }
  }
}
