/**
 * A saved thread as UI messages: what a chat shows when it opens a conversation (after a reload,
 * say). The same shape the live events build, as far as a checkpoint remembers it.
 */
import { failureFromText, type ToolFailure } from '../errors/tool-failure';
import { isPlainObject } from '../json/json-value';
import { dataURL, readMediaData } from '../messages/media-data';
import { textOf } from '../messages/text-of';
import type { AIMessage, Content, Message, ToolCall, ToolMessage } from '../messages/types';
import type { UIMediaPart, UIMessage, UIPart, UIToolPart, UIToolState } from './types';

/**
 * One user message per user message; one assistant message per turn (its steps and their tool
 * results, up to the next user message). Calls in `pending` wait for approval; a call with no
 * result that is not pending was cut off (the page closed while it ran) and shows as
 * `input-available`. A failed call's `error` is the one `failures` kept for it (the agent's
 * thread keeps them: the same kind and sentence as shown live), else read from its text.
 */
export function toUIMessages(
  messages: readonly Message[],
  pending: readonly ToolCall[],
  newId: () => string,
  failures: Readonly<Record<string, ToolFailure>> = {},
): UIMessage[] {
  const waiting = new Set(pending.map((c) => c.id));
  const out: UIMessage[] = [];
  let answer: { id: string; role: 'assistant'; parts: UIPart[] } | undefined;
  for (const message of messages) {
    if (message.role === 'user') {
      out.push({ id: newId(), role: 'user', parts: userParts(message.content) });
      answer = undefined;
    } else if (message.role === 'assistant') {
      if (!answer) {
        answer = { id: newId(), role: 'assistant', parts: [] };
        out.push(answer);
      }
      answer.parts.push(...partsOf(message, waiting));
    } else if (message.role === 'tool' && answer) {
      const at = answer.parts.findIndex((p) => p.type === 'tool' && p.toolCallId === message.toolCallId);
      const part = answer.parts[at] as UIToolPart | undefined;
      if (part) answer.parts[at] = { ...part, ...resultOf(message, failures) };
    }
  }
  return out;
}

function partsOf(message: AIMessage, waiting: ReadonlySet<string>): UIPart[] {
  const parts: UIPart[] = [];
  if (message.reasoning) parts.push({ type: 'reasoning', text: message.reasoning });
  if (message.content) parts.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls)
    parts.push({
      type: 'tool',
      toolCallId: call.id,
      toolName: call.name,
      state: waiting.has(call.id) ? 'approval-requested' : 'input-available',
      input: call.args,
      progress: [],
    });
  // Arguments the model broke: their error result follows, as for any call.
  for (const bad of message.invalidToolCalls)
    parts.push({ type: 'tool', toolCallId: bad.id, toolName: bad.name ?? '', state: 'input-available', progress: [] });
  return parts;
}

/** A person's message as UI parts: its text (one part), then its images and files. */
export function userParts(content: Content): UIPart[] {
  const text = textOf(content);
  return [
    ...(text !== '' || typeof content === 'string' ? [{ type: 'text' as const, text }] : []),
    ...mediaOf(content),
  ];
}

/** The images and files of a content, each with a URL a page can show. */
function mediaOf(content: Content): UIMediaPart[] {
  if (typeof content === 'string') return [];
  const media: UIMediaPart[] = [];
  for (const part of content) {
    if (part.type === 'text') continue;
    const read = readMediaData(part.data, part.mediaType);
    const url = read.kind === 'url' ? read.url : dataURL(read.mediaType ?? 'application/octet-stream', read.base64);
    media.push({
      type: part.type,
      url,
      ...(part.mediaType ? { mediaType: part.mediaType } : {}),
      ...(part.filename ? { filename: part.filename } : {}),
    });
  }
  return media;
}

/**
 * A result's fields of a tool part; a code script's artifact gives back its console and its
 * calls. An error result's `error` is its call's in `failures`, if kept.
 */
export function resultOf(
  message: ToolMessage,
  failures: Readonly<Record<string, ToolFailure>> = {},
): Partial<UIToolPart> {
  const result: { -readonly [K in keyof UIToolPart]?: UIToolPart[K] } =
    message.status !== 'error'
      ? { state: 'output-available', output: textOf(message.content) }
      : failed(failureOf(message.toolCallId, textOf(message.content), failures));
  const media = mediaOf(message.content);
  if (media.length > 0) result.media = media;
  if (message.artifact === undefined) return result;
  result.artifact = message.artifact;
  const script = scriptOf(message.artifact, failures);
  if (script) {
    result.progress = script.logs;
    result.children = script.calls;
  }
  return result;
}

/** What `codeTool` keeps of a script's run: its console lines and the calls it made. */
function scriptOf(
  artifact: unknown,
  failures: Readonly<Record<string, ToolFailure>>,
): { logs: unknown[]; calls: UIToolPart[] } | undefined {
  if (!isPlainObject(artifact) || !Array.isArray(artifact.logs) || !Array.isArray(artifact.calls)) return undefined;
  const calls: UIToolPart[] = [];
  for (const call of artifact.calls as unknown[]) {
    if (!isPlainObject(call) || typeof call.toolCallId !== 'string' || typeof call.name !== 'string') continue;
    const content = typeof call.content === 'string' ? call.content : '';
    calls.push({
      type: 'tool',
      toolCallId: call.toolCallId,
      toolName: call.name,
      ...(call.ok === true
        ? { state: 'output-available', output: content }
        : failed(failureOf(call.toolCallId, content, failures))),
      ...(isPlainObject(call.args) ? { input: call.args } : {}),
      progress: [],
    });
  }
  return { logs: artifact.logs, calls };
}

/** The failure kept for a call, else the one its text tells. */
function failureOf(toolCallId: string, text: string, failures: Readonly<Record<string, ToolFailure>>): ToolFailure {
  return Object.hasOwn(failures, toolCallId) ? (failures[toolCallId] as ToolFailure) : failureFromText(text);
}

/** A failed call's state and error: a refusal is `output-denied`, as the AI SDK names it. */
export function failed(error: ToolFailure): { state: UIToolState; error: ToolFailure } {
  return { state: error.kind === 'denied' ? 'output-denied' : 'output-error', error };
}
