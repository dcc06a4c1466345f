import { describeValue } from '../errors/moat-error';
import { checkCount } from '../errors/option-checks';
import { INTERRUPTED, toolFailure } from '../errors/tool-failure';
import { eventStream, followSignal } from '../invoker/event-stream';
import { ToolInvoker } from '../invoker/tool-invoker';
import { isPlainObject } from '../json/json-value';
import { checkMessages } from '../messages/message-json';
import type { AIMessage, Message, Usage } from '../messages/types';
import { checkSettings } from '../models/settings';
import type { ChatModel, ModelSettings } from '../models/types';
import {
  checkOutputSchema,
  type OutputOf,
  type OutputSchema,
  type ResolvedOutput,
  resolveOutput,
} from '../output/output-schema';
import { readOutput } from '../output/read-output';
import type { ToolSet } from '../pool/typed-tools';
import type { WorkerPool } from '../pool/worker-pool';
import type { ToolSpec } from '../providers/tool-spec';
import type { ThreadSummary } from '../store/thread-summary';
import { deniedMessage, interruptedMessage, resumeDecided } from './approvals';
import { checkStreamOptions, newThreadId, type ParsedInput, readInput } from './input';
import type { ModelKnowledge } from './open-answer';
import { runStep, type StepAgent } from './step';
import { inCallOrder, Thread, threadMemory } from './thread';
import { lockThread } from './thread-lock';
import type {
  AgentEvent,
  AgentInput,
  AgentOptions,
  AgentOutputResult,
  AgentResult,
  AgentStopReason,
  AgentStreamOptions,
  StepPlan,
  StopCondition,
  ThreadSnapshot,
} from './types';
import { type Budget, type BudgetStop, checkUsageOptions, overBudget, type RunUsage } from './usage';

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
  readonly #maxSteps: number;
  /** The checkpointer is the agent's own memory: its threads are this page's alone. */
  readonly #local: boolean;
  readonly #output: OutputSchema | undefined;
  readonly #budget: Budget | undefined;
  readonly #prepareStep: AgentOptions['prepareStep'];
  readonly #stopWhen: StopCondition[];

  constructor(options: AgentOptions<Tools>) {
    if (typeof options !== 'object' || options === null)
      throw new TypeError(`createAgent takes an options object, got ${describeValue(options)}`);
    const { model, pool, tools, invoker, system, approve, eagerTools, checkpointer } = options;
    if (typeof model?.stream !== 'function')
      throw new TypeError(
        `Expected \`model\` to be a chat model (openAICompatible(…), …), got ${describeValue(model)}`,
      );
    if (pool !== undefined && invoker !== undefined)
      throw new TypeError('Give the agent a `pool` or an `invoker` (which has its pool), not both');
    if (tools !== undefined && invoker !== undefined)
      throw new TypeError('Give `tools` to your invoker (`new ToolInvoker({ pool, tools })`), not beside it');
    if (invoker !== undefined && !(invoker instanceof ToolInvoker))
      throw new TypeError(`Expected \`invoker\` to be a ToolInvoker, got ${describeValue(invoker)}`);
    if (system !== undefined && typeof system !== 'string')
      throw new TypeError(`Expected \`system\` to be a string, got ${describeValue(system)}`);
    if (approve !== undefined && typeof approve !== 'function')
      throw new TypeError(`Expected \`approve\` to be a function, got ${describeValue(approve)}`);
    if (eagerTools !== undefined && typeof eagerTools !== 'boolean')
      throw new TypeError(`Expected \`eagerTools\` to be a boolean, got ${describeValue(eagerTools)}`);
    if (
      checkpointer !== undefined &&
      (typeof checkpointer?.get !== 'function' || typeof checkpointer.put !== 'function')
    )
      throw new TypeError(`Expected \`checkpointer\` to be a Checkpointer, got ${describeValue(checkpointer)}`);
    if (options.output !== undefined) checkOutputSchema(options.output);
    const { fallbackModels, prices, budget, prepareStep, stopWhen } = options;
    if (
      fallbackModels !== undefined &&
      !(Array.isArray(fallbackModels) && fallbackModels.every((m) => typeof m?.stream === 'function'))
    )
      throw new TypeError(
        `Expected \`fallbackModels\` to be a list of chat models, got ${describeValue(fallbackModels)}`,
      );
    checkUsageOptions(budget, prices);
    if (prepareStep !== undefined && typeof prepareStep !== 'function')
      throw new TypeError(`Expected \`prepareStep\` to be a function, got ${describeValue(prepareStep)}`);
    const conditions = stopWhen === undefined ? [] : Array.isArray(stopWhen) ? [...stopWhen] : [stopWhen];
    if (!conditions.every((c) => typeof c === 'function'))
      throw new TypeError(`Expected \`stopWhen\` to be a function or a list of them, got ${describeValue(stopWhen)}`);
    this.#budget = budget;
    this.#prepareStep = prepareStep;
    this.#stopWhen = conditions;
    const { temperature, maxTokens, toolChoice, parallelToolCalls, providerOptions } = options;
    const settings: ModelSettings = Object.fromEntries(
      Object.entries({ temperature, maxTokens, toolChoice, parallelToolCalls, providerOptions }).filter(
        ([, v]) => v !== undefined,
      ),
    );
    checkSettings(settings);
    const knowledge = new WeakMap<ChatModel, ModelKnowledge>();
    if (options.summarizer !== undefined && typeof options.summarizer?.stream !== 'function')
      throw new TypeError(`Expected \`summarizer\` to be a chat model, got ${describeValue(options.summarizer)}`);
    this.#stepAgent = {
      model,
      summarizer: options.summarizer,
      fallbacks: fallbackModels ? [...fallbackModels] : [],
      prices,
      knowledge: (m) => {
        const known = knowledge.get(m) ?? { calibration: 1 };
        knowledge.set(m, known);
        return known;
      },
      // Inside, the tools' types are not needed: only the events the caller reads carry them.
      invoker:
        (invoker as ToolInvoker | undefined) ??
        (pool || tools?.length
          ? new ToolInvoker({ ...(pool ? { pool: pool as WorkerPool } : {}), tools: tools ?? [] })
          : undefined),
      system,
      settings,
      checkpointer: checkpointer ?? threadMemory(),
      approve,
      eager: eagerTools ?? true,
    };
    this.#maxSteps = checkCount('maxSteps', options.maxSteps ?? 10, { min: 1 });
    this.#local = checkpointer === undefined;
    this.#output = options.output;
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
    if (threadId === undefined) {
      // A new thread: its lock is asked for now, before anyone can know its id (its first save),
      // so a run another tab starts on it later queues behind this one. The run need not wait
      // for the grant, and has nothing to load.
      const fresh = newThreadId();
      const taking = lockThread(fresh, { ifBusy: 'fail', local: this.#local });
      try {
        await this.#driveHeld(parsed, Thread.fresh(fresh), options, output, signal, emit);
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
      await this.#driveHeld(
        parsed,
        await Thread.load(this.#stepAgent.checkpointer, threadId),
        options,
        output,
        signal,
        emit,
      );
    } finally {
      release();
    }
  }

  async #driveHeld(
    parsed: ParsedInput,
    thread: Thread,
    options: AgentStreamOptions,
    output: ResolvedOutput | undefined,
    signal: AbortSignal,
    emitEvent: (event: AgentEvent) => void,
  ): Promise<void> {
    const threadId = thread.id;
    // A failed call's kind and sentence for a person go with the thread: a reload shows them as they were.
    const emit = (event: AgentEvent) => {
      if (event.type === 'tool-error') thread.failures[event.toolCallId] = toolFailure(event.error);
      emitEvent(event);
    };
    if (options.state) thread.state = { ...thread.state, ...options.state };
    // The run so far: its steps, its last answer's text, its usage and cost (summaries included).
    const progress: RunUsage & { steps: number; text: string } = { steps: 0, text: '', usage: {}, cost: undefined };
    const { usage } = progress;
    const finish = (stopReason: AgentStopReason, answer?: { output: unknown }, budget?: BudgetStop) => {
      const result: AgentResult & { output?: unknown } = {
        threadId,
        text: progress.text,
        messages: [...thread.messages],
        stopReason,
        usage,
        state: thread.state,
        steps: progress.steps,
        totals: { ...thread.totals },
      };
      if (thread.pending.length > 0) result.pendingApprovals = [...thread.pending];
      if (progress.cost !== undefined) result.cost = progress.cost;
      if (budget) result.budget = budget;
      if (answer) result.output = answer.output;
      emit({ type: 'finish', ...result });
    };
    // Stopped while it waited for the thread: nothing was done.
    if (signal.aborted) return finish('aborted');
    try {
      // Approved calls that were running when the page went away are never run again.
      if (thread.running.length > 0) {
        thread.messages = inCallOrder([...thread.messages, ...thread.running.map(interruptedMessage)]);
        for (const call of thread.running) thread.failures[call.id] = INTERRUPTED;
        thread.running = [];
      }
      if ('approvals' in parsed) {
        await resumeDecided(thread, parsed.approvals, {
          checkpointer: this.#stepAgent.checkpointer,
          invoker: this.#stepAgent.invoker,
          context: options.context,
          signal,
          emit,
        });
        if (thread.pending.length > 0) return finish('approval');
      } else {
        // A new message while calls wait: they are refused, so the thread stays well-formed.
        const refused = thread.pending.map((call) =>
          deniedMessage(call, 'the user sent a new message instead of deciding', emit),
        );
        thread.messages = inCallOrder([...thread.messages, ...refused]);
        thread.pending = [];
        thread.messages.push(...parsed.messages);
      }
      for (;;) {
        if (progress.steps >= this.#maxSteps) return finish('max-steps');
        const spent = { tokens: (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0), cost: progress.cost ?? 0 };
        const over = overBudget(this.#budget, spent, thread.totals);
        if (over) {
          // Stopped before its first model call: the user's message is kept all the same.
          if (progress.steps === 0 && 'messages' in parsed) await thread.save(this.#stepAgent.checkpointer);
          return finish('budget', undefined, over);
        }
        progress.steps++;
        progress.text = '';
        const plan = this.#prepareStep && (await this.#plan(progress.steps, thread, usage));
        const step = await runStep(this.#stepAgent, thread, options, signal, emit, progress, output, plan);
        const { ai } = step;
        if (thread.pending.length > 0) {
          for (const toolCall of thread.pending) emit({ type: 'approval-request', toolCall });
          return finish('approval');
        }
        if (ai.toolCalls.length === 0 && ai.invalidToolCalls.length === 0) {
          const stopReason = stopReasonOf(ai);
          if (!output) return finish(stopReason);
          return finish(stopReason, { output: await readOutput(ai.content, output, stopReason) });
        }
        for (const condition of this.#stopWhen) {
          const context = { steps: progress.steps, message: ai, toolMessages: step.toolMessages };
          if (await condition({ ...context, messages: thread.messages, usage, totals: thread.totals }))
            return finish('stop-when');
        }
      }
    } catch (error) {
      if (signal.aborted && !thread.unsaved) return finish('aborted');
      throw error;
    }
  }

  /** What `prepareStep` says of the step to come, checked. */
  async #plan(step: number, thread: Thread, usage: Usage): Promise<StepPlan | undefined> {
    const prepare = this.#prepareStep as NonNullable<AgentOptions['prepareStep']>;
    const plan: StepPlan | undefined = await prepare({
      step,
      messages: thread.messages,
      model: this.#stepAgent.model,
      tools: await this.#loadSpecs(),
      system: this.#stepAgent.system,
      usage: { ...usage },
      totals: { ...thread.totals },
    });
    if (plan === undefined) return undefined;
    if (!isPlainObject(plan)) throw new TypeError(`prepareStep returned ${describeValue(plan)}, not a step plan`);
    if (plan.model !== undefined && typeof (plan.model as Partial<ChatModel> | null)?.stream !== 'function')
      throw new TypeError(`prepareStep's model is not a chat model: ${describeValue(plan.model)}`);
    if (plan.tools !== undefined && !Array.isArray(plan.tools))
      throw new TypeError(`prepareStep's tools are not a list of tool specs: ${describeValue(plan.tools)}`);
    if (plan.system !== undefined && typeof plan.system !== 'string')
      throw new TypeError(`prepareStep's system is not a string: ${describeValue(plan.system)}`);
    if (plan.messages !== undefined) return { ...plan, messages: checkMessages(plan.messages as Message[]) };
    return plan;
  }
}

function stopReasonOf(ai: AIMessage): AgentStopReason {
  return ai.stopReason === 'length' || ai.stopReason === 'content-filter' ? ai.stopReason : 'end';
}
