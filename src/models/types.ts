import type { AIMessage, Message } from '../messages/types';
import type { OutputFormat } from '../providers/output-format';
import type { ToolSpec } from '../providers/tool-spec';
import type { StreamPart } from '../stream/stream-part';

/** Which tool the model may or must call: any (`auto`), at least one, none, or this one. */
export type ToolChoice = 'auto' | 'required' | 'none' | { name: string };

/** Generation settings every client understands; each maps them to its provider's fields. */
export interface ModelSettings {
  temperature?: number;
  maxTokens?: number;
  toolChoice?: ToolChoice;
  /** Whether the model may call several tools in one turn (where the provider has the switch). */
  parallelToolCalls?: boolean;
  /**
   * Merged into the request body last (deep for objects): the provider's own fields, e.g.
   * `{ reasoning_effort: 'low' }` or Anthropic's `{ thinking: { type: 'enabled', budget_tokens } }`.
   */
  providerOptions?: Record<string, unknown>;
}

/** One model request: the history, the tools, the settings. */
export interface ModelRequest extends ModelSettings {
  messages: readonly Message[];
  tools?: readonly ToolSpec[];
  /** Put before the history as the system prompt. */
  system?: string;
  /**
   * Structured output: the answer must be JSON fitting this schema. Each client sends it in its
   * provider's own field (OpenAI `response_format` / `text.format`, Anthropic `output_config`,
   * Gemini `responseJsonSchema`, Ollama `format`); tools stay usable before the answer.
   */
  output?: OutputFormat;
  signal?: AbortSignal;
}

/**
 * The answer as it streams: `StreamPart`s, then `message()` for the whole `AIMessage`. Iterating
 * throws `ModelHTTPError`, `ModelNetworkError` or `ModelStreamError` on failure, the signal's
 * reason on abort; stopping early (`break`) cancels the request.
 */
export interface ModelStream extends AsyncIterable<StreamPart> {
  /**
   * The same parts, one array per chunk the model sent (a client that cannot tell chunks apart
   * may leave this out). Read this or the parts, not both.
   */
  batches?(): AsyncIterable<StreamPart[]>;
  /** The final message; call after the iteration ended. */
  message(): AIMessage;
}

/** A chat model: what `createAgent` drives. Clients are made by `openAICompatible`, `anthropic`, … */
export interface ChatModel {
  /** The client: `'openai-compatible'`, `'anthropic'`, `'gemini'`, `'ollama'`, `'scripted'`. */
  readonly provider: string;
  /** The model's name as the provider knows it. */
  readonly modelId: string;
  /**
   * The model's context window in tokens, when the app gave it (`contextWindow` in the client's
   * options): an agent then fits each request to it (see docs/agent.md).
   */
  readonly contextWindow?: number;
  stream(request: ModelRequest): ModelStream;
}

/** What every client takes about the model itself. */
export interface ModelInfoOptions {
  /**
   * The model's context window in tokens (input and output together), as its provider documents
   * it or the server was started with (Ollama's `num_ctx`): an agent fits each request to it.
   */
  contextWindow?: number;
}

/** Options every HTTP client shares. */
export interface HttpClientOptions extends ModelInfoOptions {
  /** Replaces the global `fetch` (a proxy, a test double, a custom agent). */
  fetch?: typeof fetch;
  /** Extra request headers. */
  headers?: Record<string, string>;
  /**
   * Retries of a request that failed before its first byte (429, 5xx, 408, 409, or no answer).
   * Default 2. Never after bytes arrived.
   */
  maxRetries?: number;
  /** The first retry's delay; doubled each time, with jitter. Default 500 ms. */
  retryDelayMs?: number;
  /** A retry never waits longer than this, whatever `Retry-After` says. Default 20,000 ms. */
  maxRetryDelayMs?: number;
}
