import { GrowingText } from '../json/growing-text';
import { isPlainObject } from '../json/json-value';
import { createPartialJsonParser, type PartialJsonParser } from '../json/partial-json-parser';
import { aiMessage } from '../messages/constructors';
import { type ParsedToolCall, parseToolCall, toolCallFromArgs } from '../messages/parse-tool-call';
import type { AIMessage, InvalidToolCall, StopReason, ToolCall, Usage } from '../messages/types';
import { IdAllocator } from '../providers/wire';
import type { StreamPart } from './stream-part';

interface CallState {
  id: string;
  name: string;
  ordinal: number;
  /** The argument text so far, read only at the end (reading it on each delta would copy it all). */
  text: GrowingText;
  /** The same text, parsed as it came: its value is the arguments, never parsed again. */
  parser: PartialJsonParser;
  /** Arguments built by JSON path (Vertex `partialArgs`) instead of text. */
  pathArgs?: Record<string, unknown>;
  /** Arguments that arrived whole, as a value. */
  valueArgs?: unknown;
  done?: { toolCall: ToolCall } | { invalidToolCall: InvalidToolCall };
}

/**
 * The state every stream decoder shares: text, reasoning, and the tool calls under construction,
 * each with its own incremental argument parser. Format decoders translate provider events into
 * calls on this object, which returns the parts to emit.
 */
export class MessageBuilder {
  readonly #calls = new Map<string, CallState>();
  readonly #order: CallState[] = [];
  readonly #ids = new IdAllocator();
  #text = '';
  #reasoning = '';
  #stopReason: StopReason | undefined;
  #usage: Usage | undefined;
  #id: string | undefined;
  #metadata: Record<string, unknown> = {};
  #finished = false;

  /** Provider key (index, item id, …) → the call it names, if still open or done. */
  has(key: string): boolean {
    return this.#calls.has(key);
  }

  isOpen(key: string): boolean {
    const call = this.#calls.get(key);
    return call !== undefined && call.done === undefined;
  }

  /** True when the call's argument text so far is a complete JSON document. */
  argsComplete(key: string): boolean {
    const call = this.#calls.get(key);
    // An object only: arguments are one, and a scalar ended early would lose what follows it
    // ('0' then ' ': the call is judged invalid all the same, on its whole text).
    return (
      call !== undefined &&
      call.parser.length > 0 &&
      call.parser.state === 'complete' &&
      isPlainObject(call.parser.value)
    );
  }

  idOf(key: string): string | undefined {
    return this.#calls.get(key)?.id;
  }

  get callCount(): number {
    return this.#order.length;
  }

  get finished(): boolean {
    return this.#finished;
  }

  text(delta: string): StreamPart[] {
    if (!delta) return [];
    this.#text += delta;
    return [{ type: 'text-delta', delta }];
  }

  reasoning(delta: string): StreamPart[] {
    if (!delta) return [];
    this.#reasoning += delta;
    return [{ type: 'reasoning-delta', delta }];
  }

  setId(id: unknown): void {
    if (typeof id === 'string' && id && this.#id === undefined) this.#id = id;
  }

  setStopReason(reason: StopReason): void {
    this.#stopReason = reason;
  }

  get stopReason(): StopReason | undefined {
    return this.#stopReason;
  }

  /** Merge usage figures; later reports win field by field. */
  setUsage(usage: Usage | undefined): void {
    if (!usage) return;
    this.#usage = { ...this.#usage, ...usage };
  }

  get usage(): Usage | undefined {
    return this.#usage;
  }

  /** Provider data kept on the message (`metadata[provider][field]`). */
  meta(provider: string, field: string, value: unknown): void {
    this.#bucket(provider)[field] = value;
  }

  #bucket(provider: string): Record<string, unknown> {
    if (!isPlainObject(this.#metadata[provider])) this.#metadata[provider] = {};
    return this.#metadata[provider] as Record<string, unknown>;
  }

  metaOf(provider: string): unknown {
    return this.#metadata[provider];
  }

  metaEntry(provider: string, field: string, key: string, value: unknown): void {
    const bucket = this.#bucket(provider);
    if (!isPlainObject(bucket[field])) bucket[field] = {};
    (bucket[field] as Record<string, unknown>)[key] = value;
  }

  /**
   * Begin a tool call under a provider key. The id is synthesized when the provider has none.
   * `quiet` records it without a `tool-input-start` part (a call that never got a name).
   */
  start(key: string, id: string | undefined, name: string, quiet = false): StreamPart[] {
    const ordinal = this.#order.length;
    const call: CallState = {
      id: this.#ids.take(id),
      name,
      ordinal,
      text: new GrowingText(),
      parser: createPartialJsonParser(),
    };
    this.#calls.set(key, call);
    this.#order.push(call);
    return quiet ? [] : [{ type: 'tool-input-start', id: call.id, name: call.name, index: ordinal }];
  }

  /** More argument text for an open call (`quiet`: recorded, no `tool-input-delta` part). */
  args(key: string, delta: string, quiet = false): StreamPart[] {
    const call = this.#calls.get(key);
    if (!call || call.done || !delta) return [];
    call.text.append(delta);
    const value = call.parser.push(delta);
    if (quiet) return [];
    return [{ type: 'tool-input-delta', id: call.id, delta, partialArgs: isPlainObject(value) ? value : {} }];
  }

  /** The call's whole argument text as the provider finally states it (Responses `.done`). */
  argsFinal(key: string, text: string): StreamPart[] {
    const call = this.#calls.get(key);
    if (!call || call.done) return [];
    const sofar = call.text.value;
    if (text === sofar) return [];
    if (text.startsWith(sofar)) return this.args(key, text.slice(sofar.length));
    // The provider's final text disagrees with the deltas: it is authoritative.
    call.text.reset(text);
    call.parser = createPartialJsonParser();
    const value = call.parser.push(text);
    return [{ type: 'tool-input-delta', id: call.id, delta: text, partialArgs: isPlainObject(value) ? value : {} }];
  }

  /** Arguments that arrived as a value, whole (Gemini `args`, Ollama `arguments`). */
  argsValue(key: string, value: unknown): StreamPart[] {
    const call = this.#calls.get(key);
    if (!call || call.done) return [];
    call.valueArgs = value;
    let text: string;
    try {
      text = JSON.stringify(value) ?? '';
    } catch {
      text = String(value);
    }
    call.text.reset(text);
    return [{ type: 'tool-input-delta', id: call.id, delta: text, partialArgs: isPlainObject(value) ? value : {} }];
  }

  /** One value at a JSON path (Vertex `partialArgs`); strings continue an earlier string there. */
  argsAtPath(key: string, path: (string | number)[], value: unknown, append: boolean): StreamPart[] {
    const call = this.#calls.get(key);
    if (!call || call.done || path.length === 0) return [];
    call.pathArgs ??= {};
    const written = setAtPath(call.pathArgs, path, value, append);
    if (written === undefined) return [];
    return [
      {
        type: 'tool-input-delta',
        id: call.id,
        delta: typeof value === 'string' ? value : JSON.stringify(value),
        partialArgs: call.pathArgs,
        path,
      },
    ];
  }

  /** The call is complete: parse its arguments strictly and emit `tool-call` or `invalid-tool-call`. */
  end(key: string): StreamPart[] {
    const call = this.#calls.get(key);
    if (!call || call.done) return [];
    return [this.#close(call)];
  }

  /** Close every open call, judging its arguments strictly (cut-off ones make invalid calls). */
  endAll(): StreamPart[] {
    return this.#order.filter((c) => !c.done).map((c) => this.#close(c));
  }

  #settle(call: CallState, partial: boolean): NonNullable<CallState['done']> {
    let parsed: ParsedToolCall;
    if (call.valueArgs !== undefined) parsed = toolCallFromArgs(call.id, call.name, call.valueArgs, call.text.value);
    else if (call.pathArgs !== undefined) parsed = toolCallFromArgs(call.id, call.name, call.pathArgs);
    else parsed = settleText(call, partial);
    return parsed.valid ? { toolCall: parsed.toolCall } : { invalidToolCall: parsed.invalidToolCall };
  }

  #close(call: CallState): StreamPart {
    call.done = this.#settle(call, false);
    return 'toolCall' in call.done
      ? { type: 'tool-call', toolCall: call.done.toolCall }
      : { type: 'invalid-tool-call', invalidToolCall: call.done.invalidToolCall };
  }

  /** The `finish` part, once. */
  finishPart(): StreamPart[] {
    if (this.#finished) return [];
    this.#finished = true;
    const stopReason = this.#stopReason ?? 'other';
    return [this.#usage ? { type: 'finish', stopReason, usage: this.#usage } : { type: 'finish', stopReason }];
  }

  /**
   * The message so far. With `partial`, open calls appear with their arguments parsed best-effort;
   * without, they are judged as they stand (cut-off arguments make an invalid call).
   */
  message(partial: boolean): AIMessage {
    const toolCalls: ToolCall[] = [];
    const invalidToolCalls: InvalidToolCall[] = [];
    for (const call of this.#order) {
      const done = call.done ?? this.#settle(call, partial);
      if ('toolCall' in done) toolCalls.push(partial ? structuredCloneArgs(done.toolCall) : done.toolCall);
      else invalidToolCalls.push(done.invalidToolCall);
    }
    const message = aiMessage({ content: this.#text, toolCalls, invalidToolCalls });
    if (this.#stopReason) message.stopReason = this.#stopReason;
    if (this.#id) message.id = this.#id;
    if (this.#reasoning) message.reasoning = this.#reasoning;
    if (this.#usage) message.usage = { ...this.#usage };
    if (Object.keys(this.#metadata).length > 0) message.metadata = structuredClone(this.#metadata);
    return message;
  }
}

/**
 * `parseToolCall` of the call's text, from the parser that read it as it came: a long argument
 * is not parsed a second time, in one go, when its call closes. Only what the parser's value
 * cannot say alone (no name, nothing but white space, text cut off or not JSON) goes to
 * `parseToolCall`, for its verdict and message.
 */
function settleText(call: CallState, partial: boolean): ParsedToolCall {
  const { parser } = call;
  // A call that closes is judged at the end of its input (a top-level number is then whole).
  const state = partial ? parser.state : parser.finish().state;
  if (call.name && parser.value !== undefined && (state === 'complete' || (state === 'repaired' && partial)))
    return toolCallFromArgs(call.id, call.name, parser.value, call.text.value);
  return parseToolCall({ id: call.id, name: call.name, args: call.text.value }, { partial });
}

/** A snapshot must not share the live objects the parsers keep extending. */
function structuredCloneArgs(call: ToolCall): ToolCall {
  return { ...call, args: structuredClone(call.args) };
}

/**
 * Write `value` at `path` inside `root`, creating objects and arrays on the way (an array where
 * the next step is a number). With `append`, a string is added to the string already there.
 * Keys stay own data (`__proto__` included). Returns undefined when the path cannot be written.
 */
export function setAtPath(
  root: Record<string, unknown>,
  path: (string | number)[],
  value: unknown,
  append: boolean,
): unknown {
  let node: Record<string, unknown> | unknown[] = root;
  for (let i = 0; i < path.length; i++) {
    const step = path[i] as string | number;
    const last = i === path.length - 1;
    if (Array.isArray(node) !== (typeof step === 'number')) return undefined;
    if (typeof step === 'number' && (step < 0 || step > 1e6)) return undefined;
    const current = (node as Record<string | number, unknown>)[step];
    const own = Array.isArray(node) ? step in node : Object.hasOwn(node, step);
    if (last) {
      const next = append && own && typeof current === 'string' && typeof value === 'string' ? current + value : value;
      put(node, step, next);
      return next;
    }
    if (own && typeof current === 'object' && current !== null) {
      node = current as Record<string, unknown> | unknown[];
      continue;
    }
    const child = typeof path[i + 1] === 'number' ? [] : {};
    put(node, step, child);
    node = child;
  }
  return undefined;
}

function put(node: Record<string, unknown> | unknown[], step: string | number, value: unknown): void {
  if (Array.isArray(node)) node[step as number] = value;
  else Object.defineProperty(node, step, { value, enumerable: true, writable: true, configurable: true });
}
