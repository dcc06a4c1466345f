/**
 * The message model: plain, serializable objects. They cross worker boundaries, go into IndexedDB
 * and over the network, so they are data only (no classes, no methods); helpers operate on them.
 */

/** Why the model stopped: the provider's reason mapped to one vocabulary. */
export type StopReason = 'end' | 'tool-calls' | 'length' | 'content-filter' | 'other';

/** A tool call the model made, with its arguments parsed. */
export interface ToolCall {
  /** The provider's id, or one synthesized (unique within the message) when it sent none. */
  id: string;
  name: string;
  args: Record<string, unknown>;
}

/**
 * A tool call the model produced that could not be used: its arguments were not a JSON object,
 * or it had no name. Kept so the model can be told and can correct itself.
 */
export interface InvalidToolCall {
  id: string;
  name?: string;
  /** The raw argument text as the model sent it. */
  args: string;
  /** What was wrong, in words. */
  error: string;
}

/** A fragment of a streamed tool call. Fragments with the same `index` belong to one call. */
export interface ToolCallChunk {
  index?: number;
  id?: string;
  name?: string;
  /** A piece of the JSON argument text. */
  args?: string;
}

/** Token counts, as far as the provider reports them. */
export interface Usage {
  inputTokens?: number;
  outputTokens?: number;
  totalTokens?: number;
  /** Input tokens served from the provider's prompt cache (included in `inputTokens`). */
  cachedInputTokens?: number;
  /** Output tokens spent on reasoning (included in `outputTokens`). */
  reasoningTokens?: number;
}

export interface SystemMessage {
  role: 'system';
  content: string;
  id?: string;
}

export interface UserMessage {
  role: 'user';
  content: string;
  id?: string;
}

/** What the model said: text, tool calls (valid and invalid) and why it stopped. */
export interface AIMessage {
  role: 'assistant';
  content: string;
  toolCalls: ToolCall[];
  invalidToolCalls: InvalidToolCall[];
  stopReason?: StopReason;
  id?: string;
  /** Reasoning text the model exposed (DeepSeek `reasoning_content`, Anthropic thinking, …). */
  reasoning?: string;
  usage?: Usage;
  /** Provider-specific data that must survive a round trip (signatures, model name, …). */
  metadata?: Record<string, unknown>;
}

/** The result of one tool call, sent back to the model. */
export interface ToolMessage {
  role: 'tool';
  toolCallId: string;
  name: string;
  /** What the model sees. */
  content: string;
  status: 'success' | 'error';
  /** Structured output kept beside the text for the app, not sent to the model. */
  artifact?: unknown;
  id?: string;
}

export type Message = SystemMessage | UserMessage | AIMessage | ToolMessage;

export type Role = Message['role'];
