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
  /** Input tokens written to the provider's prompt cache (included in `inputTokens`; Anthropic reports them). */
  cacheWriteTokens?: number;
  /** Output tokens spent on reasoning (included in `outputTokens`). */
  reasoningTokens?: number;
}

/** Text, as a part of a message's content. */
export interface TextPart {
  type: 'text';
  text: string;
}

/**
 * An image. `data` is base64 (no `data:` prefix) or a URL: `https:`/`http:` (the provider
 * fetches it) or a `data:` URL. `mediaType` (`image/png`, …) is known for any image Moat read
 * itself; a URL may leave it out.
 */
export interface ImagePart {
  type: 'image';
  data: string;
  mediaType?: string;
  /** The name it came with (a `File`'s): shown to people, not sent to a model. */
  filename?: string;
}

/** A document (a PDF, say): `data` as for an image; `mediaType` always given. */
export interface FilePart {
  type: 'file';
  data: string;
  mediaType: string;
  filename?: string;
}

/**
 * One piece of a message's content. Plain JSON data: images and files are held as base64 or a
 * URL string, never as bytes, so a message still crosses `postMessage`, IndexedDB and JSON as it is.
 */
export type ContentPart = TextPart | ImagePart | FilePart;

/** What a user or a tool says: a text, or a list of parts (text, images, files). */
export type Content = string | ContentPart[];

export interface SystemMessage {
  role: 'system';
  content: string;
  id?: string;
}

export interface UserMessage {
  role: 'user';
  content: Content;
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
  /** What the model sees: a text, or parts (an image a tool drew, say). */
  content: Content;
  status: 'success' | 'error';
  /** Structured output kept beside the text for the app, not sent to the model. */
  artifact?: unknown;
  id?: string;
}

export type Message = SystemMessage | UserMessage | AIMessage | ToolMessage;

export type Role = Message['role'];
