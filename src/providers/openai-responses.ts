/**
 * OpenAI Responses API: a response's `output` items → `AIMessage`, history → `input` items.
 */
import { textOf } from '../messages/text-of';
import type { AIMessage, ContentPart, Message, StopReason, Usage } from '../messages/types';
import { fileName, forRequest, mediaOf, mediaParts, urlOf } from './media';
import { checkStrict, type ToOpenAIToolsOptions } from './openai-chat';
import { type ToolSpec, validateToolSpecs } from './tool-spec';
import { arr, CallCollector, compact, num, type Obj, obj, str } from './wire';

/** Responses `usage` → `Usage`. */
export function openAIResponsesUsage(raw: unknown): Usage | undefined {
  if (raw === undefined || raw === null) return undefined;
  const u = obj(raw);
  return compact<Usage>({
    inputTokens: num(u.input_tokens),
    outputTokens: num(u.output_tokens),
    totalTokens: num(u.total_tokens),
    cachedInputTokens: num(obj(u.input_tokens_details).cached_tokens),
    reasoningTokens: num(obj(u.output_tokens_details).reasoning_tokens),
  });
}

/** A response's `status` (and `incomplete_details`) → `StopReason`. */
export function openAIResponsesStopReason(response: Obj, hasToolCalls: boolean): StopReason | undefined {
  switch (response.status) {
    case 'completed':
      return hasToolCalls ? 'tool-calls' : 'end';
    case 'incomplete': {
      const reason = obj(response.incomplete_details).reason;
      return reason === 'max_output_tokens' ? 'length' : reason === 'content_filter' ? 'content-filter' : 'other';
    }
    case 'failed':
    case 'cancelled':
      return 'other';
    default:
      return undefined;
  }
}

/** Text of a `message` output item, and reasoning text of a `reasoning` item. */
export function outputItemText(item: Obj): { text: string; reasoning: string } {
  let text = '';
  let reasoning = '';
  if (item.type === 'message') {
    for (const part of arr(item.content)) {
      const p = obj(part);
      if (p.type === 'output_text') text += str(p.text) ?? '';
      else if (p.type === 'refusal') text += str(p.refusal) ?? '';
    }
  } else if (item.type === 'reasoning') {
    for (const part of [...arr(item.content), ...arr(item.summary)]) reasoning += str(obj(part).text) ?? '';
  }
  return { text, reasoning };
}

/**
 * A Responses API response as an `AIMessage`: `message` items give text, `reasoning` items
 * reasoning, `function_call` items tool calls (`call_id` is the id results must carry).
 *
 * @example const ai = fromOpenAIResponses(await response.json())
 */
export function fromOpenAIResponses(response: unknown): AIMessage {
  const r = obj(response);
  const calls = new CallCollector();
  let text = '';
  let reasoning = '';
  for (const raw of arr(r.output)) {
    const item = obj(raw);
    if (item.type === 'function_call') {
      calls.fromText(str(item.call_id) ?? str(item.id), str(item.name), item.arguments);
      continue;
    }
    const got = outputItemText(item);
    text += got.text;
    reasoning += got.reasoning;
  }
  const model = str(r.model);
  return calls.message({
    content: text,
    stopReason: openAIResponsesStopReason(r, calls.any),
    id: str(r.id),
    reasoning,
    usage: openAIResponsesUsage(r.usage),
    metadata: model ? { openai: { model } } : undefined,
  });
}

/**
 * The history as Responses `input` items: messages, `function_call` items for the calls an AI
 * message made (invalid ones with their raw text) and `function_call_output` items for results.
 * Images are `input_image` parts (a URL or a data: URL), files `input_file` parts (`file_data`, a
 * data: URL with a filename, or `file_url`); a tool result with images or files has an `output`
 * list of those parts beside `input_text`.
 *
 * @example body.input = toOpenAIResponses(history)
 */
export function toOpenAIResponses(messages: readonly Message[]): Obj[] {
  const items: Obj[] = [];
  for (const m of forRequest(messages)) {
    switch (m.role) {
      case 'system':
        items.push({ role: m.role, content: m.content });
        break;
      case 'user':
        items.push({ role: m.role, content: responsesContent(m.content) });
        break;
      case 'tool':
        items.push({
          type: 'function_call_output',
          call_id: m.toolCallId,
          // Text alone goes as the text, as before parts existed.
          output: mediaParts(m.content).length === 0 ? textOf(m.content) : responsesContent(m.content),
        });
        break;
      case 'assistant':
        if (m.content) items.push({ role: 'assistant', content: m.content });
        for (const c of m.toolCalls) {
          items.push({ type: 'function_call', call_id: c.id, name: c.name, arguments: JSON.stringify(c.args) });
        }
        for (const c of m.invalidToolCalls) {
          items.push({ type: 'function_call', call_id: c.id, name: c.name ?? '', arguments: c.args });
        }
        break;
    }
  }
  return items;
}

/** Responses takes every kind of part, inline or by URL, in a message and in a function output alike. */
function responsesContent(content: string | ContentPart[]): string | Obj[] {
  if (typeof content === 'string') return content;
  let files = 0;
  return content.map((part): Obj => {
    if (part.type === 'text') return { type: 'input_text', text: part.text };
    const media = mediaOf(part);
    const url = urlOf(media);
    // A message's input_image needs `detail`; a function output's may leave it out: both take 'auto'.
    if (part.type === 'image') return { type: 'input_image', image_url: url, detail: 'auto' };
    const name = fileName(part, media, ++files);
    if (media.kind === 'url')
      return part.filename
        ? { type: 'input_file', file_url: url, filename: name }
        : { type: 'input_file', file_url: url };
    return { type: 'input_file', file_data: url, filename: name };
  });
}

/**
 * Tool specs as Responses `tools` (flat: no `function` wrapper).
 *
 * @example body.tools = toOpenAIResponsesTools(await pool.specs())
 */
export function toOpenAIResponsesTools(specs: readonly ToolSpec[], options: ToOpenAIToolsOptions = {}): Obj[] {
  return validateToolSpecs(specs).map((spec) => {
    checkStrict(spec, options.strict);
    const tool: Obj = {
      type: 'function',
      name: spec.name,
      description: spec.description,
      parameters: spec.inputSchema,
    };
    tool.strict = options.strict ?? false;
    return tool;
  });
}
