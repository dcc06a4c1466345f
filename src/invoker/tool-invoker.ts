import type { ToolDefinition } from '../../worker/define-tool';
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import type { InvalidToolCall, ToolCall, ToolMessage } from '../messages/types';
import { charge, OUTPUT_LIMITS, type OutputLimits, overLimit, type TurnBudget } from '../pool/output-budget';
import type { ToolSet } from '../pool/pool-options';
import type { ResultFormat } from '../pool/protocol';
import type { WorkerPool } from '../pool/worker-pool';
import { type ToolSpec, validateToolSpec } from '../providers/tool-spec';
import type { Store } from '../store/types';
import { errorText, invalidCallMessage } from './error-policy';
import { eventStream, followSignal } from './event-stream';
import { type InlineRuntime, loadInlineRuntime, runInlineTool } from './inline-tool';
import { type InvokerCodeParts, invokerOptionsFromJSON, invokerToJSON, type ToolInvokerJSON } from './invoker-json';
import { checkRunOptions, makeRequest, resolveInvokerOptions } from './invoker-options';
import { isPageTool, runPageTool } from './page-tool';
import { PoolCallOptions } from './pool-call-options';
import { runSourceTool } from './source-tool';
import { ToolTurn, type TurnHost } from './tool-turn';
import { turnInput } from './turn-input';
import type {
  Interceptor,
  InvokerInput,
  NextTool,
  OnError,
  PageTool,
  Reducer,
  RunOptions,
  RunResult,
  ToolEvent,
  ToolInvokerOptions,
  ToolOutcome,
  ToolSource,
} from './types';

export type { ToolInvokerJSON } from './invoker-json';

/**
 * Runs a model turn's tool calls: workers through the pool, inline tools on the page, all in
 * parallel (up to `maxConcurrency`), through the interceptors, with LangGraph ToolNode and
 * Haystack ToolInvoker semantics for inputs, errors, results and state updates.
 *
 * @example
 * const invoker = new ToolInvoker({ pool, onError: 'return' });
 * const { messages, state } = await invoker.run(aiMessage, { state, context });
 * for await (const event of invoker.stream(aiMessage)) render(event);
 */
export class ToolInvoker<Tools extends ToolSet = ToolSet> {
  readonly #pool: WorkerPool | undefined;
  readonly #inline: Map<string, ToolDefinition | PageTool>;
  readonly #onError: OnError;
  readonly #resultFormat: ResultFormat | undefined;
  readonly #maxConcurrency: number;
  readonly #interceptors: readonly Interceptor[];
  readonly #store: Store | undefined;
  readonly #messagesKey: string;
  readonly #reducers: Record<string, Reducer>;
  readonly #timeoutMs: number | undefined;
  readonly #sources: readonly ToolSource[];
  /** Which source serves each of the sources' tools (as last listed). */
  #sourceOf = new Map<string, ToolSource>();
  #specs: Promise<Map<string, ToolSpec>> | undefined;
  /** What `specs()` gives, the same list until the tools change. */
  #list: ToolSpec[] | undefined;
  /** The pool's options for a turn's calls, made once per turn. */
  readonly #callOptions: PoolCallOptions;
  /** The specs once loaded: a turn then starts without waiting a tick for them. */
  #loaded: Map<string, ToolSpec> | undefined;
  /** What a turn needs of this invoker. */
  readonly #host: TurnHost;
  /** Describing and running inline tools (zod): loaded with the specs, only when there are inline tools. */
  #inlineRuntime: InlineRuntime | undefined;

  constructor(options: ToolInvokerOptions<Tools> = {}) {
    const config = resolveInvokerOptions(options);
    this.#pool = config.pool;
    this.#inline = config.inline;
    this.#sources = config.sources;
    this.#onError = config.onError;
    this.#resultFormat = config.resultFormat;
    this.#maxConcurrency = config.maxConcurrency;
    this.#interceptors = config.interceptors;
    this.#store = config.store;
    this.#messagesKey = config.messagesKey;
    this.#reducers = config.reducers;
    this.#timeoutMs = config.timeoutMs;
    this.#callOptions = new PoolCallOptions(config.resultFormat, config.timeoutMs);
    // A source's tools changed (an MCP server's list_changed): the next turn lists them again.
    // Held weakly: an invoker the app dropped stops listening instead of living on in its sources.
    const self = new WeakRef(this);
    for (const source of this.#sources) {
      const stop = source.onChange(() => {
        const invoker = self.deref();
        if (!invoker) return stop();
        invoker.#specs = undefined;
        invoker.#loaded = undefined;
        invoker.#list = undefined;
      });
    }
    this.#host = {
      loaded: () => this.#loaded,
      loadSpecs: () => this.#loadSpecs(),
      runner: (specs, options, emit, turn) => {
        const chain = this.#chain(specs, options, emit, turn);
        if (chain)
          return (call, state) => chain(makeRequest(call, specs.get(call.name), state, options.context, undefined));
        return (call, state) => this.#execute(call, state, options.context, specs, options, emit, turn);
      },
      errorText: (error, call) => errorText(this.#onError, error, call),
      invalidMessage: (bad, emit) => this.#invalidMessage(bad, emit),
      reducers: this.#reducers,
      maxConcurrency: this.#maxConcurrency,
    };
  }

  /** Construct and check at once that no tool is both inline and in the pool. */
  static async create(options: ToolInvokerOptions): Promise<ToolInvoker> {
    const invoker = new ToolInvoker(options);
    await invoker.specs();
    return invoker;
  }

  /**
   * Every tool's spec: the pool's, the sources', then the inline ones (marked `isolated: false`).
   * The same list until a source says its tools changed.
   */
  async specs(): Promise<ToolSpec[]> {
    const specs = await this.#loadSpecs();
    return this.#loaded === specs && this.#list ? this.#list : [...specs.values()];
  }

  #loadSpecs(): Promise<Map<string, ToolSpec>> {
    if (this.#specs) return this.#specs;
    const loading = (async () => {
      const specs = new Map<string, ToolSpec>();
      const zodTools = [...this.#inline.values()].filter((t) => !isPageTool(t)) as ToolDefinition[];
      const pageTools = [...this.#inline.values()].filter(isPageTool);
      const [served, inline, ...listed] = await Promise.all([
        this.#pool ? this.#pool.specs() : [],
        zodTools.length > 0 ? loadInlineRuntime() : undefined,
        ...this.#sources.map((source) => source.specs()),
      ]);
      for (const spec of served) specs.set(spec.name, spec);
      // The app's own tools win: a source's tool of a name already taken is left out (a server
      // may add one at any time; the pool's tools must not stop working for it).
      const sourceOf = new Map<string, ToolSource>();
      for (const [i, list] of listed.entries()) {
        for (const spec of list) {
          if (specs.has(spec.name) || this.#inline.has(spec.name)) continue;
          specs.set(spec.name, spec);
          sourceOf.set(spec.name, this.#sources[i] as ToolSource);
        }
      }
      const add = (spec: ToolSpec) => {
        if (specs.has(spec.name))
          throw new InvalidToolSpecError({ toolName: spec.name, reason: 'it is defined both inline and in the pool' });
        specs.set(spec.name, { ...spec, isolated: false });
      };
      for (const tool of zodTools) add((inline as InlineRuntime).describeTool(tool).spec);
      // Page tools last: they are told of every other tool (codeTool lists them for the model).
      const others = [...specs.values()];
      for (const tool of pageTools) add({ ...validateToolSpec(tool.describe(others)), name: tool.name });
      return { specs, sourceOf, inline };
    })();
    // Kept only while current: a source that changed meanwhile made this load stale.
    this.#specs = loading.then(({ specs, sourceOf, inline }) => {
      this.#inlineRuntime ??= inline;
      if (this.#specs === current) {
        this.#loaded = specs;
        this.#list = [...specs.values()];
        this.#sourceOf = sourceOf;
      }
      return specs;
    });
    const current = this.#specs;
    current.catch(() => {
      if (this.#specs === current) this.#specs = undefined;
    });
    return current;
  }

  /**
   * A turn whose calls arrive one by one: each starts the moment it is `add`ed (an agent adds a
   * call as soon as the model has finished writing it), and `close()` resolves like `run`.
   *
   * @example
   * const turn = invoker.begin({ state, signal, onEvent: render });
   * turn.add(call); // runs now
   * const { messages, state: next } = await turn.close();
   */
  begin(options: RunOptions = {}): ToolTurn {
    return this.#begin(options);
  }

  /** A turn; `budget` when it is a page tool's calls, which count in the turn of that tool's call. */
  #begin(options: RunOptions, budget?: TurnBudget): ToolTurn {
    checkRunOptions(options);
    return new ToolTurn(this.#host, options, options.state ?? {}, budget);
  }

  /**
   * Run the turn's calls; resolves with one `ToolMessage` per call, in call order, and the new
   * state. Rejects with the signal's reason when aborted, with a typed error under
   * `onError: 'throw'` (or for classes `onError` does not list), and with `StateMergeError`.
   */
  async run(input: InvokerInput, options: RunOptions = {}): Promise<RunResult> {
    checkRunOptions(options);
    const calls = turnInput(input, this.#messagesKey);
    const state = options.state ?? (calls.state ? withoutKey(calls.state, this.#messagesKey) : {});
    if (!this.#loaded) await this.#loadSpecs();
    options.signal?.throwIfAborted();
    const turn = new ToolTurn(this.#host, options, state);
    for (const call of calls.toolCalls) turn.add(call);
    for (const bad of calls.invalidToolCalls) turn.addInvalid(bad);
    return turn.close();
  }

  /**
   * The same turn as a stream of events; the last one is `done`. Stopping early (`break`) cancels
   * the calls still running.
   */
  stream(input: InvokerInput, options: RunOptions = {}): AsyncIterable<ToolEvent<Tools>> {
    return eventStream<ToolEvent<Tools>>('The consumer stopped reading the tool events', async (controller, push) => {
      checkRunOptions(options);
      const unfollow = followSignal(options.signal, controller);
      try {
        await this.run(input, {
          ...options,
          signal: controller.signal,
          onEvent: (event) => {
            options.onEvent?.(event);
            // The pool's tools are `Tools`: its events are theirs (the type is all that changes).
            push(event as ToolEvent<Tools>);
          },
        });
      } finally {
        unfollow();
      }
    });
  }

  /** The serializable configuration (Haystack's to_dict): interceptors, tools and functions are code, not data. */
  toJSON(): ToolInvokerJSON {
    return invokerToJSON({
      onError: this.#onError,
      resultFormat: this.#resultFormat,
      maxConcurrency: this.#maxConcurrency,
      messagesKey: this.#messagesKey,
      reducers: this.#reducers,
      timeoutMs: this.#timeoutMs,
      inlineTools: this.#inline.keys(),
    });
  }

  /** Rebuild an invoker from `toJSON`'s data and the parts that are code (Haystack's from_dict). */
  static fromJSON(json: ToolInvokerJSON, parts: InvokerCodeParts = {}): ToolInvoker {
    return new ToolInvoker(invokerOptionsFromJSON(json, parts));
  }

  /** The interceptors wrapped around the call itself, outermost first; undefined when there are none. */
  #chain(
    specs: Map<string, ToolSpec>,
    options: RunOptions,
    emit: (event: ToolEvent) => void,
    turn: TurnBudget,
  ): NextTool | undefined {
    if (this.#interceptors.length === 0) return undefined;
    const execute: NextTool = (request) =>
      this.#execute(request.toolCall, request.state, request.context, specs, options, emit, turn, request.timeoutMs);
    return this.#interceptors.reduceRight<NextTool>(
      (next, interceptor) => async (request) => interceptor(request, next),
      execute,
    );
  }

  /** One call, inline or through the pool. Not async: the pool's promise is returned as it is (no extra hop). */
  #execute(
    toolCall: ToolCall,
    state: unknown,
    context: unknown,
    specs: Map<string, ToolSpec>,
    options: RunOptions,
    emit: (event: ToolEvent) => void,
    turn: TurnBudget,
    timeoutMs?: number,
  ): Promise<ToolOutcome> {
    const source = this.#sourceOf.get(toolCall.name);
    if (source) {
      return runSourceTool(source, toolCall, {
        signal: options.signal,
        timeoutMs: timeoutMs ?? this.#timeoutMs,
        emit,
      }).then((outcome) => charged(outcome, toolCall, turn, this.#pool?.limits));
    }
    const inline = this.#inline.get(toolCall.name);
    if (inline && isPageTool(inline)) {
      return runPageTool(inline, toolCall, {
        specs,
        options: context === undefined ? options : { ...options, context },
        state,
        emit,
        begin: (o) => this.#begin(o, turn),
        errorText: (error, call) => errorText(this.#onError, error, call),
      }).then((outcome) => charged(outcome, toolCall, turn, this.#pool?.limits));
    }
    // The runtime is loaded with the specs, which every turn waits for before its first call.
    if (inline && this.#inlineRuntime) {
      return runInlineTool(this.#inlineRuntime, inline, toolCall, {
        state,
        context,
        resultFormat: this.#resultFormat,
        store: this.#store,
        signal: options.signal,
        specs,
        emit,
      });
    }
    if (!this.#pool || !specs.has(toolCall.name)) {
      return Promise.reject(
        new ToolNotFoundError({ toolName: toolCall.name, toolCallId: toolCall.id, available: [...specs.keys()] }),
      );
    }
    const made = this.#callOptions.for(state, context, options, emit, turn);
    return this.#pool.call(toolCall, timeoutMs === undefined ? made : { ...made, timeoutMs });
  }

  #invalidMessage(bad: InvalidToolCall, emit: (event: ToolEvent) => void): ToolMessage {
    const { error, message } = invalidCallMessage(bad);
    emit({ type: 'tool-error', toolCallId: bad.id, error, message });
    return message;
  }
}

/**
 * The outcome of a source (an MCP server, a page's WebMCP tools) or a page tool, counted in its
 * turn against the pool's `maxTurnSize` (the default without a pool); past it the call fails
 * with `ToolOutputLimitError`. Only the turn's limit applies: each source has its own cap on one
 * answer (an MCP answer's 32 MB), and a page tool's outcome holds what its calls gave it.
 */
function charged(
  outcome: ToolOutcome,
  toolCall: ToolCall,
  turn: TurnBudget,
  limits: Readonly<OutputLimits> = OUTPUT_LIMITS,
): ToolOutcome {
  const outside: OutputLimits = { ...limits, maxResultSize: Number.POSITIVE_INFINITY };
  const parts = [outcome?.content, outcome?.artifact, outcome?.update, outcome?.media];
  const over = charge(outside, { progress: 0, turn }, 'result', parts);
  if (over) throw overLimit(outside, over, { toolCall });
  return outcome;
}

function withoutKey(state: Record<string, unknown>, key: string): Record<string, unknown> {
  const { [key]: _dropped, ...rest } = state;
  return rest;
}
