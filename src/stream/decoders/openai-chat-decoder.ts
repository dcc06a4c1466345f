import { contentText, openAIChatStopReason, openAIChatUsage } from '../../providers/openai-chat';
import { arr, num, type Obj, obj, str } from '../../providers/wire';
import { BaseDecoder, providerError } from '../stream-decoder';
import type { StreamPart } from '../stream-part';

/**
 * Chat Completions chunks. Calls are keyed by `index`; quirks handled: a call's index may start
 * at 1 (after text), a whole call may come in one chunk, continuation chunks may resend `id` or
 * send `"name": ""`, `tool_calls: []` may ride on every chunk, some servers omit `index` (each
 * such entry with a new id is a new call), and some reuse one index for several complete calls
 * with different ids (each is its own call). The wire has no end-of-call event: a call is done
 * the moment its argument JSON object closes (so it can start running while the model goes on),
 * or, failing that, when the next call begins or the message ends. Usage may come in a chunk of
 * its own after the `finish_reason`, so the `finish` part waits for it or for the end of input.
 */
export class OpenAIChatDecoder extends BaseDecoder {
  readonly format = 'openai-chat' as const;
  /** Provider key (`i<index>` or `id:<id>`) → the builder key of the call it names now. */
  readonly #keys = new Map<string, string>();
  /** Fragments that arrived before their call had a name. */
  readonly #pending = new Map<string, { id?: string; args: string }>();
  #count = 0;
  #lastKey: string | undefined;
  #stopSeen = false;

  protected handle(e: Obj): StreamPart[] {
    if (e.error !== undefined) return [providerError(e)];
    this.builder.setId(e.id);
    const parts: StreamPart[] = [];
    const choices = arr(e.choices);
    const choice = obj(choices.find((c) => obj(c).index === 0 || obj(c).index === undefined) ?? choices[0]);
    const delta = obj(choice.delta);
    parts.push(...this.builder.text(contentText(delta.content)));
    parts.push(...this.builder.reasoning(str(delta.reasoning_content) ?? str(delta.reasoning) ?? ''));
    for (const raw of arr(delta.tool_calls)) parts.push(...this.#toolCall(obj(raw)));

    const usage = openAIChatUsage(e.usage);
    this.builder.setUsage(usage);
    const stop = openAIChatStopReason(choice.finish_reason);
    if (stop) {
      this.#stopSeen = true;
      this.builder.setStopReason(stop === 'end' && this.builder.callCount > 0 ? 'tool-calls' : stop);
      parts.push(...this.builder.endAll());
    }
    // The finish part goes out once usage is known: in the stop chunk, or the one after it.
    if (this.#stopSeen && usage) parts.push(...this.builder.finishPart());
    return parts;
  }

  #toolCall(tc: Obj): StreamPart[] {
    const fn = obj(tc.function);
    const index = num(tc.index);
    const id = str(tc.id) || undefined;
    const name = str(fn.name) || undefined;
    const parts: StreamPart[] = [];

    let providerKey: string;
    if (index !== undefined) providerKey = `i${index}`;
    else if (id) providerKey = `id:${id}`;
    else providerKey = this.#lastKey ?? `n${this.#count}`;

    let key = this.#keys.get(providerKey);
    // The same index with a different id: a new, separate call (Ollama's /v1 does this).
    if (key && id && this.builder.has(key) && this.builder.idOf(key) !== id && !this.#pending.has(key)) {
      parts.push(...this.builder.end(key));
      key = undefined;
    }
    if (!key) {
      key = `k${this.#count++}`;
      this.#keys.set(providerKey, key);
      // A new call begins: an earlier one whose arguments are complete is done.
      if (this.#lastKey) this.#endIfComplete(this.#lastKey, parts);
    }
    this.#lastKey = providerKey;

    const args = fn.arguments;
    if (!this.builder.has(key)) {
      const pending = this.#pending.get(key) ?? { args: '' };
      if (id) pending.id = id;
      if (typeof args === 'string') pending.args += args;
      if (!name) {
        this.#pending.set(key, pending);
        return parts;
      }
      this.#pending.delete(key);
      parts.push(...this.builder.start(key, pending.id, name));
      parts.push(...this.builder.args(key, pending.args));
      if (args !== undefined && typeof args !== 'string') parts.push(...this.builder.argsValue(key, args));
      this.#endIfComplete(providerKey, parts);
      return parts;
    }
    if (typeof args === 'string') parts.push(...this.builder.args(key, args));
    else if (args !== undefined && args !== null) parts.push(...this.builder.argsValue(key, args));
    this.#endIfComplete(providerKey, parts);
    return parts;
  }

  #endIfComplete(providerKey: string, parts: StreamPart[]): void {
    const key = this.#keys.get(providerKey);
    if (key && this.builder.isOpen(key) && this.builder.argsComplete(key)) parts.push(...this.builder.end(key));
  }

  protected override beforeFlush(): StreamPart[] {
    // Fragments that never got a name become invalid calls (closed by the flush that follows).
    for (const [key, pending] of this.#pending) {
      this.builder.start(key, pending.id, '', true);
      this.builder.args(key, pending.args, true);
    }
    this.#pending.clear();
    return [];
  }
}
