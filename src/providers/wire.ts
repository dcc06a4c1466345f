/**
 * Small readers for provider JSON: model output is hostile input, so nothing is trusted to have
 * the documented shape. Each returns a safe default instead of throwing.
 */
import { isPlainObject } from '../json/json-value';
import { parseToolCall, toolCallFromArgs } from '../messages/parse-tool-call';
import type { InvalidToolCall, ToolCall } from '../messages/types';

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
