import type { InvalidToolCall, StopReason, ToolCall, Usage } from '../messages/types';

/** The wire formats Moat decodes. */
export type StreamFormat = 'openai-chat' | 'openai-responses' | 'anthropic' | 'gemini' | 'ollama';

/** A piece of the model's answer as it streams. Names are noun-then-action. */
export type StreamPart =
  | { type: 'text-delta'; delta: string }
  | { type: 'reasoning-delta'; delta: string }
  /** A tool call begins; `index` is its position among this message's calls (0, 1, …). */
  | { type: 'tool-input-start'; id: string; name: string; index: number }
  /**
   * More argument text arrived. `partialArgs` is the best-effort arguments object so far (live:
   * it is extended in place, clone it to keep a snapshot). Providers that stream arguments by
   * JSON path (Vertex Gemini) also give the `path` the `delta` belongs to.
   */
  | {
      type: 'tool-input-delta';
      id: string;
      delta: string;
      partialArgs: Record<string, unknown>;
      path?: (string | number)[];
    }
  /** A tool call is complete and its arguments parse: ready to run. */
  | { type: 'tool-call'; toolCall: ToolCall }
  /** A tool call is complete but unusable (no name, arguments not a JSON object). */
  | { type: 'invalid-tool-call'; invalidToolCall: InvalidToolCall }
  | { type: 'finish'; stopReason: StopReason; usage?: Usage }
  /** A diagnostic: something in the stream was skipped. Decoding goes on. */
  | { type: 'error'; code: StreamErrorCode; message: string; raw?: unknown };

export type StreamErrorCode =
  /** A line or event was not valid JSON, or not the shape the format has. */
  | 'malformed-event'
  /** The provider sent an error event in the stream. */
  | 'provider-error'
  /** The stream ended without the provider's end-of-message event. */
  | 'truncated';
