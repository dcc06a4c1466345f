/**
 * Ollama's native chat API (`/api/chat`, NDJSON when streaming): a response → `AIMessage`,
 * history → `messages`. (Ollama's OpenAI-compatible `/v1` endpoint uses `openai-chat`.)
 */
import { textOf } from '../messages/text-of';
import type { AIMessage, Content, Message, StopReason, ToolMessage, Usage } from '../messages/types';
import {
  forRequest,
  type MediaPart,
  mediaOf,
  mediaParts,
  toolTextBeforeMedia,
  unsupported,
  type Where,
  withToolMediaAfter,
} from './media';
import { type ToolSpec, validateToolSpecs } from './tool-spec';
import { arr, CallCollector, compact, num, type Obj, obj, str } from './wire';

/** Ollama `done_reason` → `StopReason`. */
export function ollamaStopReason(reason: unknown, hasToolCalls: boolean): StopReason | undefined {
  if (reason === undefined || reason === null) return undefined;
  if (hasToolCalls) return 'tool-calls';
  return reason === 'stop' ? 'end' : reason === 'length' ? 'length' : 'other';
}

/** Ollama's counters → `Usage`. */
export function ollamaUsage(raw: Obj): Usage | undefined {
  const input = num(raw.prompt_eval_count);
  const output = num(raw.eval_count);
  return compact<Usage>({
    inputTokens: input,
    outputTokens: output,
    totalTokens: input !== undefined && output !== undefined ? input + output : undefined,
  });
}

/**
 * An Ollama chat response (or its `message`) as an `AIMessage`. Ollama sends each call whole,
 * with object `arguments` and usually no id: ids are synthesized, unique within the message.
 *
 * @example const ai = fromOllama(await response.json())
 */
export function fromOllama(response: unknown): AIMessage {
  const r = obj(response);
  const m = r.message !== undefined ? obj(r.message) : r;
  const calls = new CallCollector();
  for (const raw of arr(m.tool_calls)) {
    const c = obj(raw);
    const fn = obj(c.function);
    calls.fromText(str(c.id), str(fn.name), fn.arguments);
  }
  const model = str(r.model);
  return calls.message({
    content: str(m.content) ?? '',
    stopReason: ollamaStopReason(r.done_reason, calls.any),
    reasoning: str(m.thinking),
    usage: ollamaUsage(r),
    metadata: model ? { ollama: { model } } : undefined,
  });
}

/**
 * The history as Ollama `messages`: calls with object arguments, results as `tool` messages
 * naming their tool (`tool_name`). Images go in a message's `images` (base64); Ollama takes no
 * documents and fetches no URLs, so a file part or an image at an http(s) URL throws
 * `UnsupportedContentError`.
 *
 * Ollama documents `images` for user turns of vision models (a model's template decides what a
 * tool turn shows), so the images of tool results go in a user message after the run of tool
 * messages; the tool message says so.
 *
 * @example body.messages = toOllama(history)
 */
export function toOllama(history: readonly Message[]): Obj[] {
  return withToolMediaAfter(forRequest(history), toOllamaMessage, (results) => {
    const shown = results.map((m) => ({ m, images: ollamaImages(mediaParts(m.content), 'a tool result') }));
    return {
      role: 'user',
      content: shown
        .map(({ m, images }) => `What the tool ${m.name} returned (call ${m.toolCallId}): ${images.length} image(s).`)
        .join('\n'),
      images: shown.flatMap(({ images }) => images),
    };
  });
}

function ollamaImages(parts: MediaPart[], where: Where): string[] {
  return parts.map((part) => {
    const media = mediaOf(part);
    if (part.type === 'file')
      throw unsupported('ollama', part, media, where, 'images only (base64, in `images`): no documents');
    if (media.kind === 'url')
      throw unsupported('ollama', part, media, where, 'images as base64 only: it fetches no URLs');
    return media.base64;
  });
}

function ollamaUser(content: Content): Obj {
  if (typeof content === 'string') return { role: 'user', content };
  const images = ollamaImages(mediaParts(content), 'a user message');
  return images.length > 0
    ? { role: 'user', content: textOf(content), images }
    : { role: 'user', content: textOf(content) };
}

function ollamaTool(m: ToolMessage): Obj {
  const media = mediaParts(m.content).length > 0;
  return { role: 'tool', content: media ? toolTextBeforeMedia(m) : textOf(m.content), tool_name: m.name };
}

function toOllamaMessage(m: Message): Obj {
  switch (m.role) {
    case 'system':
      return { role: m.role, content: m.content };
    case 'user':
      return ollamaUser(m.content);
    case 'tool':
      return ollamaTool(m);
    case 'assistant': {
      const out: Obj = { role: 'assistant', content: m.content };
      const calls = [
        ...m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.args } })),
        ...m.invalidToolCalls.map((c) => ({ function: { name: c.name ?? 'unknown', arguments: {} } })),
      ];
      if (calls.length > 0) out.tool_calls = calls;
      return out;
    }
  }
}

/**
 * Tool specs as Ollama `tools` (the OpenAI function shape).
 *
 * @example body.tools = toOllamaTools(await pool.specs())
 */
export function toOllamaTools(specs: readonly ToolSpec[]): Obj[] {
  return validateToolSpecs(specs).map((spec) => ({
    type: 'function',
    function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
  }));
}
