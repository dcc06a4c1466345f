import type { ToolDefinition } from '../../worker/define-tool';
import type {
  AIMessage,
  FilePart,
  ImagePart,
  InvalidToolCall,
  Message,
  ToolCall,
  ToolMessage,
} from '../messages/types';
import type { ToolName, ToolOutput, ToolSet } from '../pool/pool-options';
import type { ResultFormat } from '../pool/protocol';
import type { WorkerPool } from '../pool/worker-pool';
import type { ToolSpec } from '../providers/tool-spec';
import type { Store } from '../store/types';

/** What a tool call came to, before it becomes a `ToolMessage`. */
export interface ToolOutcome {
  /** The text for the model. */
  content: string;
  /** Default `'success'`. */
  status?: 'success' | 'error';
  /**
   * `'json'` when `content` is the JSON of what the tool returned (a tool's own outcome says;
   * one an interceptor makes up is text).
   */
  kind?: 'text' | 'json';
  artifact?: unknown;
  /** State updates (`withUpdate(result, update)`). */
  update?: Record<string, unknown>;
  /** Images and files beside the text: the model sees them with it, where its provider can. */
  media?: (ImagePart | FilePart)[];
}

/** One call on its way to a tool, as interceptors see it. */
export interface ToolRequest {
  readonly toolCall: ToolCall;
  /** The tool's spec; undefined for a tool nobody serves. */
  readonly spec: ToolSpec | undefined;
  readonly state: unknown;
  readonly context: unknown;
  /**
   * This call's own time limit in ms, when one was given (`override({ timeoutMs })`): it wins
   * over the tool's own, the invoker's and the pool's (`Infinity`: none). Pool calls only.
   */
  readonly timeoutMs?: number;
  /** A copy with some fields changed (the original is left as it was). */
  override(changes: Partial<Pick<ToolRequest, 'toolCall' | 'state' | 'context' | 'timeoutMs'>>): ToolRequest;
}

export type NextTool = (request: ToolRequest) => Promise<ToolOutcome>;

/**
 * Wraps every tool call (LangChain's `wrap_tool_call`): call `next` once, several times (retry),
 * or not at all (block: return an outcome, or throw a typed error), and return or replace what
 * it gives.
 */
export type Interceptor = (request: ToolRequest, next: NextTool) => Promise<ToolOutcome> | ToolOutcome;

/** An error class, matched by `isInstance` when it has one (so it survives worker boundaries). */
export type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * What a failed call becomes: `'return'` (default) an error `ToolMessage` with a clear text for
 * the model; `'throw'` the typed error (sibling results ride on it); a string, that exact text;
 * a function, its text; a list of error classes, messages for those, a throw for the rest.
 */
export type OnError =
  | 'return'
  | 'throw'
  | string
  | ((error: Error, toolCall: ToolCall) => string)
  | readonly ErrorClass[];

/** How parallel state updates to one key combine. */
export type Reducer = 'replace' | 'append' | ((current: unknown, update: unknown) => unknown);

/** What `run` and `stream` accept: an AI message, a message list, a state object, or calls. */
export type InvokerInput = AIMessage | readonly Message[] | Record<string, unknown> | readonly ToolCall[];

export interface RunOptions {
  /** The caller's state: tools receive the part they declare; updates merge into it. */
  state?: Record<string, unknown>;
  context?: unknown;
  signal?: AbortSignal;
  /** Every event, as it happens (the same as `stream` yields). */
  onEvent?: (event: ToolEvent) => void;
}

export interface RunResult {
  /** One per call (invalid calls included), in the order of the calls. */
  messages: ToolMessage[];
  /** The state after this turn's updates (the new tool messages are not added to it). */
  state: Record<string, unknown>;
}

/** A call made by another tool (code calling tools from the sandbox) names its caller. */
export interface Nested {
  parentToolCallId?: string;
}

/**
 * A call finished: `message` is what the model reads, `output` what the tool gave back (as
 * `resultValue` reads a pool's result). With typed tools (`createWorkerPool<typeof tools>`),
 * checking `name` narrows `output` to that tool's result type.
 */
export type ToolFinished<Tools extends ToolSet = ToolSet> = {
  [N in ToolName<Tools>]: {
    type: 'tool-finished';
    toolCallId: string;
    name: N;
    output: ToolOutput<Tools, N>;
    message: ToolMessage;
  } & Nested;
}[ToolName<Tools>];

/**
 * What happens while a turn runs. Per call: started → deltas → finished | error, once.
 * `Tools`: the pool's tools, when it is typed (`tool-finished` outputs follow them).
 */
export type ToolEvent<Tools extends ToolSet = ToolSet> =
  | ({ type: 'tool-started'; toolCallId: string; name: string; args: Record<string, unknown> } & Nested)
  | ({ type: 'tool-output-delta'; toolCallId: string; delta: unknown } & Nested)
  /**
   * Another call's fault stopped the worker this one ran on; its tool is idempotent, so it runs
   * again on a fresh worker (its deltas may come again). Once per call at most.
   */
  | ({ type: 'tool-rerun'; toolCallId: string; reason: string } & Nested)
  | ToolFinished<Tools>
  /** `message` is the error ToolMessage the model will see; absent when the error is thrown. */
  | ({ type: 'tool-error'; toolCallId: string; error: Error; message?: ToolMessage } & Nested)
  | { type: 'done'; messages: ToolMessage[]; state: Record<string, unknown> };

/** The calls of one turn, taken from whatever the input was. */
export interface TurnInput {
  toolCalls: ToolCall[];
  invalidToolCalls: InvalidToolCall[];
  /** The state the input carried (a state-object input), if any. */
  state?: Record<string, unknown>;
}

export interface ToolInvokerOptions<Tools extends ToolSet = ToolSet> {
  /** The workers' tools (a typed pool, `createWorkerPool<typeof tools>`, types the events). */
  pool?: WorkerPool<Tools>;
  /** Tools that run on the page (they need the DOM): same `defineTool`, not isolated. */
  inlineTools?: readonly (ToolDefinition | PageTool)[];
  /** Tools from elsewhere: MCP servers (`mcpServer`), a page's WebMCP tools (`pageTools`). */
  tools?: readonly ToolSource[];
  onError?: OnError;
  resultFormat?: ResultFormat;
  /** Calls of one turn running at once, at most. Default: all of them. */
  maxConcurrency?: number;
  interceptors?: readonly Interceptor[];
  /** The store inline tools get as `runtime.store`. */
  store?: Store;
  /** Where a state-object input keeps its messages. Default `'messages'`. */
  messagesKey?: string;
  /** Per state key; `replace` when not named. */
  reducers?: Record<string, Reducer>;
  /**
   * The time limit of pool calls whose tool declares none of its own (the pool's when absent).
   * A tool's own limit wins over it; a call's own (an interceptor's `override({ timeoutMs })`)
   * wins over both.
   */
  timeoutMs?: number;
}

/** What a page tool's call gets (see page-tool.ts). */
export interface PageToolRuntime {
  toolCallId: string;
  signal: AbortSignal;
  /** Stream a delta to whoever listens (`tool-output-delta`). */
  emit(delta: unknown): void;
  /**
   * Call another tool of the invoker; resolves with its `ToolMessage` (status `error` when it
   * failed). Its events carry this call's id as `parentToolCallId`.
   */
  call(name: string, args: Record<string, unknown>, options?: { signal?: AbortSignal }): Promise<ToolMessage>;
  /** Every tool of the invoker, this one included. */
  tools: readonly ToolSpec[];
}

export interface PageTool {
  readonly kind: 'page-tool';
  readonly name: string;
  /** Its spec, given the specs of every other tool of the invoker. */
  describe(others: readonly ToolSpec[]): ToolSpec;
  /** A string is the text for the model. Throwing fails the call (the invoker words it). */
  run(args: Record<string, unknown>, runtime: PageToolRuntime): Promise<ToolOutcome | string> | ToolOutcome | string;
}

/**
 * Tools served from somewhere other than the pool, whose list may change while the app runs: an
 * MCP server (`mcpServer`), the tools a page registered with WebMCP (`pageTools`). Each call
 * goes the way a pool call goes (interceptors, approvals, time limit, events).
 */
export interface ToolSource {
  readonly kind: 'tool-source';
  /** What it is, for messages: `MCP server https://…`. */
  readonly name: string;
  /** The tools it offers now (read again after `onChange` has fired). */
  specs(): Promise<ToolSpec[]>;
  /** Run one call; a rejection fails the call (the invoker words it). */
  call(call: ToolCall, runtime: ToolSourceRuntime): Promise<ToolOutcome>;
  /** Run `listener` whenever its list of tools changes; returns what stops that. */
  onChange(listener: () => void): () => void;
}

/** What a source's call gets. */
export interface ToolSourceRuntime {
  /** Aborted when the run stops or the call's time runs out: stop the call (its result is not read). */
  signal: AbortSignal;
  /** Stream a delta to whoever listens (`tool-output-delta`): progress, say. */
  emit(delta: unknown): void;
}
