/**
 * Anthropic Messages API: a message → `AIMessage`, history → `{ system, messages }`.
 */
import { textOf } from '../messages/text-of';
import type { AIMessage, Content, Message, StopReason, Usage } from '../messages/types';
import { forRequest, type MediaPart, mediaOf, mediaParts, unsupported, type Where } from './media';
import { type ToolSpec, validateToolSpecs } from './tool-spec';
import { arr, CallCollector, compact, num, type Obj, obj, str } from './wire';

/** Anthropic `stop_reason` → `StopReason`. */
export function anthropicStopReason(reason: unknown): StopReason | undefined {
  switch (reason) {
    case undefined:
    case null:
      return undefined;
    case 'end_turn':
    case 'stop_sequence':
      return 'end';
    case 'tool_use':
      return 'tool-calls';
    case 'max_tokens':
    case 'model_context_window_exceeded':
      return 'length';
    case 'refusal':
      return 'content-filter';
    default:
      return 'other';
  }
}

/**
 * Anthropic `usage` → `Usage`. Anthropic counts cached input apart from `input_tokens`; Moat's
 * `inputTokens` includes it, as the other providers' do.
 */
export function anthropicUsage(raw: unknown): Usage | undefined {
  if (raw === undefined || raw === null) return undefined;
  const u = obj(raw);
  const input = num(u.input_tokens);
  const cacheRead = num(u.cache_read_input_tokens);
  const cacheWrite = num(u.cache_creation_input_tokens);
  const output = num(u.output_tokens);
  const inputTokens = input === undefined ? undefined : input + (cacheRead ?? 0) + (cacheWrite ?? 0);
  return compact<Usage>({
    inputTokens,
    outputTokens: output,
    totalTokens: inputTokens !== undefined && output !== undefined ? inputTokens + output : undefined,
    cachedInputTokens: cacheRead,
    cacheWriteTokens: cacheWrite,
  });
}

/** A thinking block kept for the round trip (Anthropic wants them back, signed, on tool turns). */
export type AnthropicThinkingBlock =
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

/**
 * An Anthropic message as an `AIMessage`: `text` blocks give content, `thinking` blocks reasoning
 * (kept signed in `metadata.anthropic.thinking` for the next request), `tool_use` blocks calls.
 *
 * @example const ai = fromAnthropic(await response.json())
 */
export function fromAnthropic(response: unknown): AIMessage {
  const r = obj(response);
  const calls = new CallCollector();
  let text = '';
  let reasoning = '';
  const thinking: AnthropicThinkingBlock[] = [];
  for (const raw of arr(r.content)) {
    const block = obj(raw);
    if (block.type === 'text') text += str(block.text) ?? '';
    else if (block.type === 'tool_use') calls.fromValue(str(block.id), str(block.name), block.input);
    else if (block.type === 'thinking') {
      reasoning += str(block.thinking) ?? '';
      thinking.push({ type: 'thinking', thinking: str(block.thinking) ?? '', signature: str(block.signature) ?? '' });
    } else if (block.type === 'redacted_thinking')
      thinking.push({ type: 'redacted_thinking', data: str(block.data) ?? '' });
  }
  const model = str(r.model);
  return calls.message({
    content: text,
    stopReason: anthropicStopReason(r.stop_reason),
    id: str(r.id),
    reasoning,
    usage: anthropicUsage(r.usage),
    metadata:
      model || thinking.length > 0
        ? { anthropic: compact({ model, thinking: thinking.length ? thinking : undefined }) }
        : undefined,
  });
}

export interface AnthropicRequest {
  /** The system messages, joined; absent when there are none. */
  system?: string;
  messages: Obj[];
}

/**
 * The history as an Anthropic request: system messages lifted into `system`, tool results as
 * `tool_result` blocks in a user turn (`is_error` from the status), consecutive results and a
 * following user text merged into one turn, signed thinking blocks sent back before tool calls.
 * An invalid tool call goes back as a `tool_use` with empty input, so its error result has a call
 * to answer. An empty answer is left out (Anthropic refuses an assistant turn with no content).
 * Images are `image` blocks (base64 JPEG, PNG, GIF or WebP, or a URL), files `document` blocks (a
 * PDF as base64 or a URL, plain text as text), in a user turn or inside a `tool_result`; any
 * other part throws `UnsupportedContentError`.
 *
 * @example const { system, messages } = toAnthropic(history)
 */
export function toAnthropic(history: readonly Message[]): AnthropicRequest {
  const system: string[] = [];
  const messages: Obj[] = [];
  const userTurn = (): Obj[] => {
    const last = messages[messages.length - 1];
    if (last && last.role === 'user' && Array.isArray(last.content)) return last.content as Obj[];
    const content: Obj[] = [];
    messages.push({ role: 'user', content });
    return content;
  };
  for (const m of forRequest(history)) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        userTurn().push(...anthropicBlocks(m.content, 'a user message'));
        break;
      case 'tool': {
        // Text alone goes as the text, as before parts existed.
        const content =
          mediaParts(m.content).length === 0 ? textOf(m.content) : anthropicBlocks(m.content, 'a tool result');
        const block: Obj = { type: 'tool_result', tool_use_id: m.toolCallId, content };
        if (m.status === 'error') block.is_error = true;
        const turn = userTurn();
        // tool_result blocks must come before any text in the turn
        const firstText = turn.findIndex((b) => b.type !== 'tool_result');
        if (firstText < 0) turn.push(block);
        else turn.splice(firstText, 0, block);
        break;
      }
      case 'assistant': {
        const content: Obj[] = [];
        const thinking = arr(obj(obj(m.metadata).anthropic).thinking);
        if (m.toolCalls.length > 0) for (const block of thinking) content.push(obj(block));
        if (m.content) content.push({ type: 'text', text: m.content });
        for (const c of m.toolCalls) content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
        for (const c of m.invalidToolCalls)
          content.push({ type: 'tool_use', id: c.id, name: c.name ?? 'unknown', input: {} });
        // An empty answer (the model said nothing) is left out: Anthropic refuses an empty turn.
        if (content.length > 0) messages.push({ role: 'assistant', content });
        break;
      }
    }
  }
  return system.length > 0 ? { system: system.join('\n\n'), messages } : { messages };
}

const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

function anthropicBlocks(content: Content, where: Where): Obj[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  return content.map((part) =>
    part.type === 'text' ? { type: 'text', text: part.text } : anthropicMedia(part, where),
  );
}

function anthropicMedia(part: MediaPart, where: Where): Obj {
  const media = mediaOf(part);
  if (part.type === 'image') {
    if (media.kind === 'url') return { type: 'image', source: { type: 'url', url: media.url } };
    if (!IMAGE_TYPES.includes(media.mediaType))
      throw unsupported('anthropic', part, media, where, `images of type ${IMAGE_TYPES.join(', ')}`);
    return { type: 'image', source: { type: 'base64', media_type: media.mediaType, data: media.base64 } };
  }
  const block = (source: Obj): Obj =>
    part.filename ? { type: 'document', source, title: part.filename } : { type: 'document', source };
  if (media.mediaType === 'application/pdf')
    return block(
      media.kind === 'url'
        ? { type: 'url', url: media.url }
        : { type: 'base64', media_type: 'application/pdf', data: media.base64 },
    );
  // Text files (held as base64) went as text parts already (forRequest).
  throw unsupported('anthropic', part, media, where, 'documents that are PDFs (base64 or a URL) or text');
}

/**
 * Tool specs as Anthropic `tools`.
 *
 * @example body.tools = toAnthropicTools(await pool.specs())
 */
export function toAnthropicTools(specs: readonly ToolSpec[]): Obj[] {
  return validateToolSpecs(specs).map((spec) => ({
    name: spec.name,
    description: spec.description,
    input_schema: spec.inputSchema,
  }));
}
