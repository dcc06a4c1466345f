import type { ToolFailure } from '../errors/tool-failure';
import type { ToolInvoker } from '../invoker/tool-invoker';
import type { ToolEvent, ToolSource } from '../invoker/types';
import type { ContentPartInput } from '../messages/to-content-part';
import type { AIMessage, Message, ToolCall, ToolMessage, Usage } from '../messages/types';
import type { ChatModel, ModelSettings } from '../models/types';
import type { OutputSchema } from '../output/output-schema';
import type { ToolSet } from '../pool/pool-options';
import type { WorkerPool } from '../pool/worker-pool';
import type { ToolSpec } from '../providers/tool-spec';
import type { Checkpointer } from '../store/checkpointer';
import type { IfBusy } from './thread-lock';
import type { Budget, BudgetStop, ModelPrice, UsageTotals } from './usage';

/** Why a run ended. */
export type AgentStopReason =
  /** The model answered without calling a tool. */
  | 'end'
  /** `maxSteps` model calls were made and the model still wanted tools. */
  | 'max-steps'
  /**
   * The signal aborted it (or it was stopped while it waited for its thread); the thread keeps its
   * last complete step, and the calls of the step cut short that had started, with their results.
   */
  | 'aborted'
  /** Calls wait for a person's decision (`pendingApprovals`). */
  | 'approval'
  /** The model hit its output limit. */
  | 'length'
  /** The provider's content filter stopped the answer. */
  | 'content-filter'
  /** A limit of `budget` was reached before the next model call (`budget` on the result says which). */
  | 'budget'
  /** A `stopWhen` condition held after a step. */
  | 'stop-when';

/** A person's answer to an approval request: yes, or no with a reason the model is told. */
export type ApprovalDecision = true | { approved: true } | { approved: false; reason?: string };

/** What the agent's `approve` policy says of a call: run it, ask a person, or refuse it now. */
export type ApprovalPolicyAnswer = boolean | 'ask' | { approved: false; reason?: string };

export interface ApprovalContext {
  /**
   * The tool's spec as the invoker has it, whatever `prepareStep` offered (`spec.needsApproval`:
   * the page's grant or what `defineTool` declared).
   */
  spec: ToolSpec | undefined;
  messages: readonly Message[];
  state: Record<string, unknown>;
  context: unknown;
}

/** `Tools`: the pool's tools when it is typed (`createWorkerPool<typeof tools>`): events follow them. */
export interface AgentOptions<Tools extends ToolSet = ToolSet> extends ModelSettings {
  model: ChatModel;
  /** The tools, run in workers (the agent makes a `ToolInvoker` over it). */
  pool?: WorkerPool<Tools>;
  /** Tools from elsewhere, beside the pool's: MCP servers (`mcpServer`), a page's WebMCP tools (`pageTools`). */
  tools?: readonly ToolSource[];
  /** Or an invoker of your own (inline tools, interceptors, error policy). */
  invoker?: ToolInvoker<Tools>;
  /** The system prompt, sent with every model request (not stored in the thread). */
  system?: string;
  /** Model calls per run, at most. Default 10. */
  maxSteps?: number;
  /**
   * Where threads are saved after every step (`openIndexedDBCheckpointer`: they survive a
   * reload). Default: in memory, for the agent's lifetime.
   */
  checkpointer?: Checkpointer;
  /**
   * Decides, per call, whether it runs (`true`), waits for a person (`'ask'`), or is refused
   * (`false`, or `{ approved: false, reason }`). Default: ask when the tool's spec says
   * `needsApproval`, else run.
   */
  approve?: (call: ToolCall, ctx: ApprovalContext) => ApprovalPolicyAnswer | Promise<ApprovalPolicyAnswer>;
  /**
   * Start each call the moment the model has finished writing it (default), or, with `false`,
   * only once the model's whole turn has arrived: for tools whose side effects must not happen
   * for an answer that is then aborted or broken off.
   */
  eagerTools?: boolean;
  /**
   * Structured output for every run (a run's own `output` replaces it): a zod schema (any
   * Standard Schema that gives JSON Schema) or a JSON Schema object.
   */
  output?: OutputSchema;
  /**
   * Models tried in order after `model` when it cannot answer: no answer from its server (a
   * network error), 5xx, 429 or 529 once its client's retries are spent (they wait `Retry-After`
   * up to `maxRetryDelayMs`), or a request its context refuses even fitted again. Only before
   * the answer's first part: a step is one model's. Each switch is a `model-retry` event.
   */
  fallbackModels?: readonly ChatModel[];
  /**
   * Summarizes the exchanges a request fitted to its window leaves out, instead of only dropping
   * them: the summary goes with the system prompt (room is kept for it: an eighth of the window,
   * 1,024 tokens at most) and is kept with the thread, so each exchange is summarized once. A
   * summary that fails leaves them out. Its calls count in the run's usage and cost (and its
   * budget) and in the thread's totals (as `summaries`, not `steps`).
   */
  summarizer?: ChatModel;
  /** Prices per model id (`model.modelId`): each step's cost, the thread's and the run's. */
  prices?: Readonly<Record<string, ModelPrice>>;
  /** Limits on tokens and cost, per run and per thread: a run stops before the call that would pass one. */
  budget?: Budget;
  /**
   * Called before each model call: what it returns replaces, for that step, the model (the
   * fallbacks still follow it), the tools offered, the system prompt or the messages sent
   * (fitted to the model's window all the same). The thread itself is not changed.
   */
  prepareStep?: (context: PrepareStepContext) => StepPlan | undefined | Promise<StepPlan | undefined>;
  /**
   * Checked after each step that called tools, before the next model call: when one holds, the
   * run ends with `stopReason: 'stop-when'`.
   */
  stopWhen?: StopCondition | readonly StopCondition[];
}

/** What `prepareStep` is told of the step to come. */
export interface PrepareStepContext {
  /** The step's number in this run (1 for the first model call). */
  step: number;
  /** The whole thread as it stands (what is sent is fitted from it). */
  messages: readonly Message[];
  model: ChatModel;
  tools: readonly ToolSpec[];
  system: string | undefined;
  /** This run's usage so far. */
  usage: Usage;
  /** The thread's usage over all its runs, this one's steps included. */
  totals: UsageTotals;
}

/** What `prepareStep` may change for one step. */
export interface StepPlan {
  model?: ChatModel;
  /**
   * The tools offered (a subset of the agent's): a call to another is refused (`ToolNotFoundError`
   * naming these). Approvals follow the agent's own specs, not these.
   */
  tools?: readonly ToolSpec[];
  system?: string;
  messages?: readonly Message[];
}

/** What a `stopWhen` condition is told after a step. */
export interface StopContext {
  /** Model calls made in this run. */
  steps: number;
  /** The step's answer and its tools' results. */
  message: AIMessage;
  toolMessages: readonly ToolMessage[];
  messages: readonly Message[];
  usage: Usage;
  totals: UsageTotals;
}

/** A condition that ends a run after a step (`stopWhen`). */
export type StopCondition = (context: StopContext) => boolean | Promise<boolean>;

/**
 * What `stream` and `run` take: a user's text; a list of parts, the user's message with images
 * and files (`{ type: 'image', data: file }`: a `File`, `Blob`, bytes, a `URL` or a string, read
 * before the run starts); messages; or decisions on pending approvals.
 */
export type AgentInput =
  | string
  | readonly ContentPartInput[]
  | Message
  | readonly Message[]
  | { approvals: Record<string, ApprovalDecision> };

export interface AgentStreamOptions {
  /** The conversation to continue (or start). Default: a new thread (its id is on `finish`). */
  threadId?: string;
  signal?: AbortSignal;
  /** Run-level data for tools (`runtime.context`): user id, locale… Not saved. */
  context?: unknown;
  /** Merged over the thread's saved state (JSON data; tools receive the part they declare). */
  state?: Record<string, unknown>;
  /**
   * When another run holds the thread (in this tab or another of the origin): `'wait'` (default)
   * for it to end, as long as `signal` allows, or `'fail'` at once with `ThreadBusyError`. Two
   * runs on one thread never interleave their steps.
   */
  ifBusy?: IfBusy;
  /**
   * Structured output: the final answer must be JSON fitting this schema (a zod schema, any
   * Standard Schema that gives JSON Schema, or a JSON Schema object). Tools are still called
   * before it; `output-delta` events show the object as it streams; `finish` carries `output`.
   */
  output?: OutputSchema;
  /**
   * `false`: the run keeps nothing (no checkpoint is written): a one-off question, or a
   * structured output on the side, that must not become a conversation in `threads()` (nor in a
   * chat's list). With `threadId`, the thread is read and left as it was. A call that needs
   * approval is refused (there is nothing to resume), and decisions (`{ approvals }`) are a
   * `TypeError`. Default `true`.
   */
  save?: boolean;
}

/** What a run ends with (the `finish` event, and what `run` resolves with). */
export interface AgentResult {
  threadId: string;
  /** The last model answer's text. */
  text: string;
  /** The whole thread, this run's messages included. */
  messages: Message[];
  stopReason: AgentStopReason;
  /** Summed over this run's model calls, its summarizer's included. */
  usage: Usage;
  state: Record<string, unknown>;
  /** Model calls made in this run. */
  steps: number;
  /** Calls waiting for a decision (with `stopReason: 'approval'`). */
  pendingApprovals?: ToolCall[];
  /** This run's cost (its summarizer's included), when `prices` has its models. */
  cost?: number;
  /** The thread's usage over all its runs, this one included. */
  totals: UsageTotals;
  /** Which limit stopped the run (with `stopReason: 'budget'`). */
  budget?: BudgetStop;
}

/** The stops that end with the model's answer: with structured output, `output` is there. */
export type AnsweredStopReason = 'end' | 'length' | 'content-filter';

/**
 * What a run with structured output ends with: `output`, checked against the schema, whenever
 * the run ended with an answer; none when it stopped before one (approval, max-steps, aborted).
 */
export type AgentOutputResult<O> = AgentResult &
  (
    | { stopReason: AnsweredStopReason; output: O }
    | { stopReason: Exclude<AgentStopReason, AnsweredStopReason>; output?: undefined }
  );

/** A structured output on its way: every field optional, all the way down. */
export type DeepPartial<T> = T extends readonly (infer U)[]
  ? DeepPartial<U>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A saved thread (`agent.thread(id)`). */
export interface ThreadSnapshot {
  threadId: string;
  messages: Message[];
  state: Record<string, unknown>;
  /** Calls waiting for a decision: resume with `stream({ approvals }, { threadId })`. */
  pendingApprovals: ToolCall[];
  /** When it was last saved (ms since the epoch). */
  updatedAt: number;
  /** Its usage over all its steps (and cost, with `prices`). */
  totals: UsageTotals;
  /**
   * Its failed calls as a person reads them (kind and a short sentence), by call id: what the
   * thread's error results were when they happened, which their text (the model's) does not say.
   */
  toolFailures: Record<string, ToolFailure>;
}

/**
 * Everything a run does, in order. Tool events are the invoker's (`tool-started` … `tool-error`).
 * `O` is the structured output's type, when the run asks for one.
 */
export type AgentEvent<O = unknown, Tools extends ToolSet = ToolSet> =
  | { type: 'text-delta'; delta: string }
  /**
   * Structured output: the answer's object so far, best effort (strings and numbers as far as
   * they have come). Live: later deltas extend the same object; clone it to keep one moment.
   */
  | { type: 'output-delta'; partial: DeepPartial<O> }
  | { type: 'reasoning-delta'; delta: string }
  /** The model began writing a call. */
  | { type: 'tool-input-start'; toolCallId: string; name: string; index: number }
  /** More of its arguments: `partialArgs` is the best-effort object so far (live: clone to keep). */
  | { type: 'tool-input-delta'; toolCallId: string; delta: string; partialArgs: Record<string, unknown> }
  /** The call's arguments are complete (it starts now unless it waits for approval). */
  | { type: 'tool-call'; toolCall: ToolCall }
  | ToolEventWithoutDone<Tools>
  /** One model call and its tools are done, and saved. */
  | {
      type: 'step-finish';
      step: number;
      message: AIMessage;
      toolMessages: ToolMessage[];
      usage?: Usage;
      /** The step's cost, when `prices` has its model. */
      cost?: number;
      /** The model that answered. */
      model: { provider: string; modelId: string };
    }
  /**
   * A model call is tried again before its answer began: on `to`, the next of `fallbackModels`
   * (`reason: 'unavailable'`, or `'context-overflow'` when its context refused the request even
   * fitted again), or on the same model with the request fitted again to the size its provider
   * said (`'context-overflow'`, `to` is `from`).
   */
  | {
      type: 'model-retry';
      step: number;
      reason: 'unavailable' | 'context-overflow';
      from: { provider: string; modelId: string };
      to: { provider: string; modelId: string };
      error: Error;
    }
  /** A call waits for a person: resume with `stream({ approvals: { [toolCallId]: true } }, { threadId })`. */
  | { type: 'approval-request'; toolCall: ToolCall }
  /** `output`: the structured output, checked (when the run asked for one and ended with an answer). */
  | ({ type: 'finish'; output?: O } & AgentResult)
  /**
   * The run failed (the thread keeps its last complete step, and the calls of a step cut short
   * that had started, with their results); nothing follows.
   */
  | { type: 'error'; error: Error };

export type ToolEventWithoutDone<Tools extends ToolSet = ToolSet> = Exclude<ToolEvent<Tools>, { type: 'done' }>;
