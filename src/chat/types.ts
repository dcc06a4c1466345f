import type { Agent } from '../agent/agent';
import type { AgentEvent, AgentInput, AgentStopReason, AgentStreamOptions } from '../agent/types';
import type { UsageTotals } from '../agent/usage';
import type { ToolFailure, ToolFailureKind } from '../errors/tool-failure';
import type { ContentPartInput } from '../messages/to-content-part';
import type { ToolCall } from '../messages/types';

/**
 * What a chat needs of an agent (an `Agent` has it all; the demo hands over one that can be
 * swapped). `persistent: false` says its threads do not outlive the page (no checkpointer): a
 * thread the chat is asked to open and the agent cannot find is then an error, not a new thread.
 */
export type ChatAgent = Pick<Agent, 'thread' | 'threads' | 'deleteThread'> &
  Partial<Pick<Agent, 'persistent'>> & {
    stream(input: AgentInput, options?: AgentStreamOptions): AsyncIterable<AgentEvent>;
  };

export interface ChatOptions {
  agent: ChatAgent;
  /** The conversation to open (a saved one is loaded). Default: a new thread. */
  threadId?: string | undefined;
  /**
   * When subscribers hear of changes: `schedule(notify)` must call `notify` once, soon. Default:
   * the next animation frame on a page (a stream of deltas costs one render per frame; 100 ms at
   * most when no frame comes), else the next macrotask. `getSnapshot()` is always current,
   * whatever the schedule.
   */
  schedule?: (notify: () => void) => void;
  /**
   * How many of a call's streamed deltas its tool part keeps in `progress`, the latest among
   * them (older ones are let go, counted in `progressDropped`). Default 100; `Infinity` keeps
   * them all.
   */
  maxProgressEntries?: number;
  /**
   * The size those deltas may have together, in characters (about their JSON text's; a value
   * JSON does not write, bytes or a Map, counts as too big). The latest is kept whatever its
   * size. Default 100,000; `Infinity` does not measure them.
   */
  maxProgressChars?: number;
  /**
   * Where the chat tells the developer of a misconfiguration (a pool that cannot start or is
   * refused the network, a model that refuses the key, a thread lost for want of a checkpointer)
   * and of a tool that crashed: `'console'` (`console.warn`, each once) or `'off'`. Default:
   * `'console'`, except in a production build (`process.env.NODE_ENV === 'production'`, as
   * webpack, Vite and esbuild write it).
   */
  warnings?: 'console' | 'off';
}

/** A file a person attaches (`File`, `Blob`), or a part as `agent.run` takes one. */
export type Attachment = Blob | ContentPartInput;

export interface SendOptions {
  /** Images and files sent with the message; read (into base64) before anything is shown. */
  attachments?: readonly Attachment[];
}

/**
 * Named as the AI SDK's chat status where it is the same thing:
 * - `ready`: nothing runs;
 * - `streaming`: a run is under way (`stop()` ends it);
 * - `awaiting-approval`: calls wait for `approve()` (the AI SDK says `ready` here);
 * - `error`: the last operation failed (`error` says why; `retry()` tries it again).
 */
export type ChatStatus = 'ready' | 'streaming' | 'awaiting-approval' | 'error';

/** What the chat shows, as one immutable object: a new one only when something changed. */
export interface ChatSnapshot {
  threadId: string;
  messages: readonly UIMessage[];
  status: ChatStatus;
  error: Error | undefined;
  /** Calls waiting for a person's decision (`approve(toolCallId, …)`). */
  pendingApprovals: readonly ToolCall[];
  /** The saved threads, the most recently written first. */
  threads: readonly ChatThread[];
  /**
   * Tokens (and cost, when the agent has `prices`): `run`, the latest run's, step by step;
   * `thread`, the thread's over all its runs, as saved with its checkpoints (a reload keeps it).
   */
  usage: { readonly run: UsageTotals; readonly thread: UsageTotals };
}

/** A saved thread, as a list of conversations shows it. */
export interface ChatThread {
  threadId: string;
  /** The first line of its first user message (at most 100 characters; `''` when it has none). */
  title: string;
  /** When it was last saved (ms since the epoch). */
  updatedAt: number;
}

/**
 * One message as a UI draws it. A user message holds its text; an assistant message holds all a
 * turn produced (every step up to the next user message), in order.
 */
export interface UIMessage {
  /** Stable while the chat shows it (a key for a list). */
  readonly id: string;
  readonly role: 'user' | 'assistant';
  readonly parts: readonly UIPart[];
  /** Why the last run that wrote this answer ended (`'aborted'` after `stop()`, …). */
  readonly stopReason?: AgentStopReason;
}

export type UIPart = UITextPart | UIReasoningPart | UIOutputPart | UIToolPart | UIMediaPart;

export interface UITextPart {
  readonly type: 'text';
  readonly text: string;
}

export interface UIReasoningPart {
  readonly type: 'reasoning';
  readonly text: string;
}

/**
 * An image or a file of a person's message (an attachment): `url` is ready for an `<img src>`
 * or a link (a `data:` URL, or the http(s) URL it was given as).
 */
export type UIMediaPart = UIImagePart | UIFilePart;

export interface UIImagePart {
  readonly type: 'image';
  readonly url: string;
  readonly mediaType?: string;
  readonly filename?: string;
}

export interface UIFilePart {
  readonly type: 'file';
  readonly url: string;
  readonly mediaType?: string;
  readonly filename?: string;
}

/** A structured output: the object so far while it streams (`partial: true`), then the checked one. */
export interface UIOutputPart {
  readonly type: 'output';
  readonly value: unknown;
  readonly partial: boolean;
}

/**
 * The AI SDK's tool part states, and `running`, which it does not have:
 * - `input-streaming`: the model is writing the arguments (`partialInput` so far);
 * - `input-available`: they are complete (`input`): the call is about to run (or was approved);
 * - `approval-requested`: it waits for `approve()`;
 * - `running`: it runs (`progress` holds what it streamed);
 * - `output-available`: it finished (`output`, the text the model reads);
 * - `output-error`: it failed, or could not run (`error` says how, for a person);
 * - `output-denied`: a person or the agent's policy refused it (`error` says why).
 */
export type UIToolState =
  | 'input-streaming'
  | 'input-available'
  | 'approval-requested'
  | 'running'
  | 'output-available'
  | 'output-error'
  | 'output-denied';

/**
 * Why a call failed, for a person: its `kind` (`'timeout'`, `'denied'`, `'crashed'`, `'stopped'`…;
 * see `ToolFailureKind`) and a short `message` with no call ids. JSON data: the same after a
 * reload. The model reads another text, the tool result's.
 */
export type UIToolError = ToolFailure;
export type UIToolErrorKind = ToolFailureKind;

export interface UIToolPart {
  readonly type: 'tool';
  readonly toolCallId: string;
  /** The tool's name (the AI SDK's `toolName`). */
  readonly toolName: string;
  readonly state: UIToolState;
  /** The complete arguments (from `input-available` on). */
  readonly input?: Record<string, unknown>;
  /** The arguments so far, best effort, while the model writes them. */
  readonly partialInput?: Record<string, unknown>;
  /**
   * What the tool streamed while it ran (`{ progress }` objects, log lines…), in order: the
   * latest, and before it the last ones that fit the chat's `maxProgressEntries` and
   * `maxProgressChars`.
   */
  readonly progress: readonly unknown[];
  /**
   * How many earlier deltas were let go to keep `progress` within those limits (absent when
   * none was): `progress[i]` is the call's delta number `progressDropped + i`.
   */
  readonly progressDropped?: number;
  readonly output?: string;
  /** The images and files the tool gave back beside its text (a chart it drew, say). */
  readonly media?: readonly UIMediaPart[];
  /** The structured result beside `output` (a code script's: its value, console and calls). */
  readonly artifact?: unknown;
  /** Why it failed or was refused (from `output-error` and `output-denied`). */
  readonly error?: UIToolError;
  /** Set when the call was run a second time on a fresh worker (`progress` starts again). */
  readonly rerun?: string;
  /** When it started and ended (ms since the epoch), as far as this chat saw it. */
  readonly startedAt?: number;
  readonly endedAt?: number;
  /** Calls it made (a code script calling tools), in the order they started. */
  readonly children?: readonly UIToolPart[];
}
