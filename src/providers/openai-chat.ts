/**
 * OpenAI Chat Completions (and every OpenAI-compatible server: Groq, Mistral, DeepSeek, xAI,
 * Alibaba, vLLM, Ollama's /v1, …): responses → `AIMessage`, history → request messages.
 */
import { InvalidToolSpecError } from '../errors/invalid-tool-spec-error';
import { textOf } from '../messages/text-of';
import type { AIMessage, Content, Message, StopReason, ToolMessage, Usage } from '../messages/types';
import {
  fileName,
  forRequest,
  type MediaPart,
  mediaOf,
  mediaParts,
  toolTextBeforeMedia,
  unsupported,
  urlOf,
  type Where,
  withToolMediaAfter,
} from './media';
import { strictModeProblems, type ToolSpec, validateToolSpecs } from './tool-spec';
import { arr, CallCollector, compact, num, type Obj, obj, str } from './wire';

/** Chat Completions `finish_reason` → `StopReason`. */
export function openAIChatStopReason(reason: unknown): StopReason | undefined {
  switch (reason) {
    case undefined:
    case null:
      return undefined;
    case 'stop':
      return 'end';
    case 'tool_calls':
    case 'function_call':
      return 'tool-calls';
    case 'length':
      return 'length';
    case 'content_filter':
      return 'content-filter';
    default:
      return 'other';
  }
}

/** Chat Completions `usage` → `Usage`. */
export function openAIChatUsage(raw: unknown): Usage | undefined {
  if (raw === undefined || raw === null) return undefined;
  const u = obj(raw);
  return compact<Usage>({
    inputTokens: num(u.prompt_tokens),
    outputTokens: num(u.completion_tokens),
    totalTokens: num(u.total_tokens),
    cachedInputTokens: num(obj(u.prompt_tokens_details).cached_tokens),
    reasoningTokens: num(obj(u.completion_tokens_details).reasoning_tokens),
  });
}

/** Text of a `content` that is a string or a list of `{ type: 'text', text }` parts. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  return arr(content)
    .map((part) => str(obj(part).text) ?? '')
    .join('');
}

/**
 * A chat completion (or one of its `message`s) as an `AIMessage`. Never throws: unparseable
 * arguments become `invalidToolCalls`.
 *
 * @example const ai = fromOpenAIChat(await response.json())
 */
export function fromOpenAIChat(response: unknown): AIMessage {
  const r = obj(response);
  const choice = Array.isArray(r.choices) ? obj(r.choices[0]) : undefined;
  const m = choice ? obj(choice.message) : r;
  const calls = new CallCollector();
  for (const raw of arr(m.tool_calls)) {
    const c = obj(raw);
    const fn = obj(c.function);
    calls.fromText(str(c.id), str(fn.name), fn.arguments);
  }
  const legacy = obj(m.function_call);
  if (str(legacy.name)) calls.fromText(undefined, str(legacy.name), legacy.arguments);

  const stopReason = openAIChatStopReason(choice?.finish_reason);
  const model = str(r.model);
  const refusal = str(m.refusal);
  return calls.message({
    content: contentText(m.content),
    // Some compatible servers say 'stop' after tool calls.
    stopReason: stopReason === 'end' && calls.any ? 'tool-calls' : stopReason,
    id: str(r.id),
    reasoning: str(m.reasoning_content) ?? str(m.reasoning),
    usage: openAIChatUsage(r.usage),
    metadata: model || refusal ? { openai: compact({ model, refusal }) } : undefined,
  });
}

export interface ToOpenAIChatOptions {
  /**
   * Send the AI message's `reasoning` back under this field (DeepSeek's thinking mode wants
   * `reasoning_content` on assistant turns that called tools). Default: not sent.
   */
  reasoningField?: string;
}

/**
 * The history as Chat Completions `messages`. Invalid tool calls are sent as the calls they were
 * (raw argument text), so that the error results answering them have a call to refer to. Images
 * go as `image_url` parts (a URL or a data: URL), files as `file` parts (a data: URL in
 * `file_data`, with a filename); a file at a URL throws `UnsupportedContentError`.
 *
 * A tool message takes text only here (its content is a string or text parts), so the images and
 * files of tool results go in a user message after the run of tool messages, the way OpenAI's
 * vision guide shows images: in a user turn. The tool message says so.
 *
 * @example body.messages = toOpenAIChat(history)
 */
export function toOpenAIChat(messages: readonly Message[], options: ToOpenAIChatOptions = {}): Obj[] {
  return withToolMediaAfter(
    forRequest(messages),
    (m) => toOpenAIChatMessage(m, options),
    (results) => ({ role: 'user', content: results.flatMap(toolMedia) }),
  );
}

/** A tool result's images and files as user-message parts, introduced by a line naming the call. */
function toolMedia(m: ToolMessage): Obj[] {
  const parts = mediaParts(m.content);
  return [
    { type: 'text', text: `What the tool ${m.name} returned (call ${m.toolCallId}):` },
    ...parts.map((p, i) => chatPart(p, 'a tool result', i + 1)),
  ];
}

function chatContent(content: Content): string | Obj[] {
  if (typeof content === 'string') return content;
  let files = 0;
  return content.map((p) =>
    p.type === 'text' ? { type: 'text', text: p.text } : chatPart(p, 'a user message', ++files),
  );
}

function chatPart(part: MediaPart, where: Where, n: number): Obj {
  const media = mediaOf(part);
  const url = urlOf(media);
  if (part.type === 'image') return { type: 'image_url', image_url: { url } };
  if (media.kind === 'url')
    throw unsupported(
      'openai-chat',
      part,
      media,
      where,
      'files as base64 (file_data) or uploaded (file_id), not a URL',
    );
  // "Chat Completions accepts only PDF files as file content parts" (OpenAI's file inputs guide);
  // text files went as text already (forRequest).
  if (media.mediaType !== 'application/pdf')
    throw unsupported('openai-chat', part, media, where, 'files that are PDFs (other documents: the Responses API)');
  return { type: 'file', file: { file_data: url, filename: fileName(part, media, n) } };
}

function toOpenAIChatMessage(m: Message, options: ToOpenAIChatOptions): Obj {
  switch (m.role) {
    case 'system':
      return { role: m.role, content: m.content };
    case 'user':
      return { role: m.role, content: chatContent(m.content) };
    case 'tool':
      return {
        role: 'tool',
        tool_call_id: m.toolCallId,
        content: mediaParts(m.content).length > 0 ? toolTextBeforeMedia(m) : textOf(m.content),
      };
    case 'assistant': {
      const toolCalls = [
        ...m.toolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name, arguments: JSON.stringify(c.args) },
        })),
        ...m.invalidToolCalls.map((c) => ({
          id: c.id,
          type: 'function',
          function: { name: c.name ?? '', arguments: c.args },
        })),
      ];
      const out: Obj = { role: 'assistant', content: m.content || (toolCalls.length > 0 ? null : '') };
      if (toolCalls.length > 0) out.tool_calls = toolCalls;
      if (options.reasoningField && m.reasoning) out[options.reasoningField] = m.reasoning;
      return out;
    }
  }
}

export interface ToOpenAIToolsOptions {
  /**
   * Ask for OpenAI strict mode. Each schema must already follow its rules (`strictModeProblems`
   * lists what does not): Moat does not rewrite schemas, since making an optional field nullable
   * changes what the tool receives.
   */
  strict?: boolean;
}

/**
 * Tool specs as Chat Completions `tools`.
 *
 * @example body.tools = toOpenAITools(await pool.specs())
 */
export function toOpenAITools(specs: readonly ToolSpec[], options: ToOpenAIToolsOptions = {}): Obj[] {
  return validateToolSpecs(specs).map((spec) => {
    checkStrict(spec, options.strict);
    const fn: Obj = { name: spec.name, description: spec.description, parameters: spec.inputSchema };
    if (options.strict !== undefined) fn.strict = options.strict;
    return { type: 'function', function: fn };
  });
}

/** Throws when strict mode is asked for and the schema breaks its rules. */
export function checkStrict(spec: ToolSpec, strict: boolean | undefined): void {
  if (!strict) return;
  const problems = strictModeProblems(spec.inputSchema);
  if (problems.length > 0) {
    throw new InvalidToolSpecError({
      toolName: spec.name,
      reason: `its schema breaks OpenAI strict mode: ${problems.join('; ')}`,
    });
  }
}
