/**
 * Small readers for provider JSON: model output is hostile input, so nothing is trusted to have
 * the documented shape. Each returns a safe default instead of throwing.
 */
import { isPlainObject } from '../json/json-value';
import { aiMessage } from '../messages/constructors';
import { parseToolCall, toolCallFromArgs } from '../messages/parse-tool-call';
import type { AIMessage, InvalidToolCall, StopReason, ToolCall, Usage } from '../messages/types';

export type Obj = Record<string, unknown>;

export function obj(value: unknown): Obj {
  return isPlainObject(value) ? value : {};
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** Keep only the defined fields of a usage-like object; undefined when none is. */
export function compact<T extends object>(value: { [K in keyof T]?: T[K] | undefined }): T | undefined {
  const out: Obj = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return Object.keys(out).length > 0 ? (out as T) : undefined;
}

/** Give every call an id, unique within the message: synthesized where missing, suffixed where repeated. */
export class IdAllocator {
  readonly #used = new Set<string>();
  #count = 0;

  constructor(readonly prefix = 'call_') {}

  take(id: string | undefined): string {
    const n = this.#count++;
    let out = id || `${this.prefix}${n}`;
    if (this.#used.has(out)) out = `${out}_${n}`;
    while (this.#used.has(out)) out = `${out}_`;
    this.#used.add(out);
    return out;
  }
}

/** Sorts parsed calls into valid and invalid. */
export class CallCollector {
  readonly toolCalls: ToolCall[] = [];
  readonly invalidToolCalls: InvalidToolCall[] = [];
  readonly ids: IdAllocator;

  constructor(prefix?: string) {
    this.ids = new IdAllocator(prefix);
  }

  /** True when the model called at least one tool (valid or not). */
  get any(): boolean {
    return this.toolCalls.length + this.invalidToolCalls.length > 0;
  }

  /** The AI message holding these calls; fields that are undefined or empty are left out. */
  message(fields: {
    content: string;
    stopReason: StopReason | undefined;
    id?: string | undefined;
    reasoning?: string | undefined;
    usage: Usage | undefined;
    metadata: Record<string, unknown> | undefined;
  }): AIMessage {
    const message = aiMessage({
      content: fields.content,
      toolCalls: this.toolCalls,
      invalidToolCalls: this.invalidToolCalls,
    });
    if (fields.stopReason) message.stopReason = fields.stopReason;
    if (fields.id) message.id = fields.id;
    if (fields.reasoning) message.reasoning = fields.reasoning;
    if (fields.usage) message.usage = fields.usage;
    if (fields.metadata) message.metadata = fields.metadata;
    return message;
  }

  /** A call whose arguments are JSON text (OpenAI); an object is accepted too (some compatible servers). */
  fromText(id: string | undefined, name: string | undefined, args: unknown): string {
    const callId = this.ids.take(id);
    const parsed =
      typeof args === 'string' || args === undefined || args === null
        ? parseToolCall({ id: callId, name, args: typeof args === 'string' ? args : '' })
        : toolCallFromArgs(callId, name, args);
    if (parsed.valid) this.toolCalls.push(parsed.toolCall);
    else this.invalidToolCalls.push(parsed.invalidToolCall);
    return callId;
  }

  /** A call whose arguments are a value (Anthropic `input`, Gemini `args`, Ollama `arguments`). */
  fromValue(id: string | undefined, name: string | undefined, args: unknown): string {
    const callId = this.ids.take(id);
    const parsed = toolCallFromArgs(callId, name, args);
    if (parsed.valid) this.toolCalls.push(parsed.toolCall);
    else this.invalidToolCalls.push(parsed.invalidToolCall);
    return callId;
  }
}

/** The arguments of a call, as the JSON text providers that want text expect. */
export function argsText(args: Record<string, unknown>): string {
  return JSON.stringify(args);
}
