import { openAIResponsesStopReason, openAIResponsesUsage } from '../../providers/openai-responses';
import { num, type Obj, obj, str } from '../../providers/wire';
import { BaseDecoder, providerError } from '../stream-decoder';
import type { StreamPart } from '../stream-part';

/**
 * Responses API events. A call is opened by `response.output_item.added`; its argument deltas
 * carry only `item_id` / `output_index`, which are mapped back to it; `.done` events restate the
 * whole text (some servers send no deltas at all, only `.done`).
 */
export class OpenAIResponsesDecoder extends BaseDecoder {
  readonly format = 'openai-responses' as const;
  readonly #byOutputIndex = new Map<number, string>();
  /** Text received so far per content part (`item_id:content_index`). */
  readonly #partText = new Map<string, string>();

  #partKey(e: Obj): string {
    return `${str(e.item_id) ?? num(e.output_index) ?? ''}:${num(e.content_index) ?? num(e.summary_index) ?? 0}`;
  }

  #seen(e: Obj, delta: string): string {
    const key = this.#partKey(e);
    this.#partText.set(key, (this.#partText.get(key) ?? '') + delta);
    return delta;
  }

  #rest(e: Obj, whole: string): string {
    const got = this.#partText.get(this.#partKey(e)) ?? '';
    return whole.startsWith(got) ? this.#seen(e, whole.slice(got.length)) : '';
  }

  protected handle(e: Obj): StreamPart[] {
    switch (e.type) {
      case 'response.created':
      case 'response.in_progress': {
        const response = obj(e.response);
        this.builder.setId(response.id);
        const model = str(response.model);
        if (model) this.builder.meta('openai', 'model', model);
        return [];
      }
      case 'response.output_item.added':
        return this.#itemAdded(obj(e.item), num(e.output_index));
      case 'response.output_text.delta':
      case 'response.refusal.delta':
        return this.builder.text(this.#seen(e, str(e.delta) ?? ''));
      case 'response.reasoning_text.delta':
      case 'response.reasoning_summary_text.delta':
        return this.builder.reasoning(this.#seen(e, str(e.delta) ?? ''));
      // A `.done` restates the part's whole text: what no delta brought is still owed.
      case 'response.output_text.done':
        return this.builder.text(this.#rest(e, str(e.text) ?? ''));
      case 'response.refusal.done':
        return this.builder.text(this.#rest(e, str(e.refusal) ?? ''));
      case 'response.reasoning_text.done':
      case 'response.reasoning_summary_text.done':
        return this.builder.reasoning(this.#rest(e, str(e.text) ?? ''));
      case 'response.function_call_arguments.delta': {
        const key = this.#keyOf(e);
        return key ? this.builder.args(key, str(e.delta) ?? '') : [];
      }
      case 'response.function_call_arguments.done': {
        const key = this.#keyOf(e);
        const text = str(e.arguments);
        return key && text !== undefined ? this.builder.argsFinal(key, text) : [];
      }
      case 'response.output_item.done': {
        const item = obj(e.item);
        if (item.type !== 'function_call') return [];
        const parts: StreamPart[] = [];
        let key = this.#keyOf({ item_id: item.id, output_index: e.output_index });
        if (!key || !this.builder.has(key)) {
          parts.push(...this.#itemAdded({ ...item, arguments: '' }, num(e.output_index)));
          key = this.#keyOf({ item_id: item.id, output_index: e.output_index });
        }
        if (!key) return parts;
        const text = str(item.arguments);
        if (text !== undefined) parts.push(...this.builder.argsFinal(key, text));
        return [...parts, ...this.builder.end(key)];
      }
      case 'response.completed':
      case 'response.incomplete':
      case 'response.failed': {
        const response = obj(e.response);
        this.builder.setUsage(openAIResponsesUsage(response.usage));
        const stop = openAIResponsesStopReason(response, this.builder.callCount > 0);
        if (stop) this.builder.setStopReason(stop);
        const parts: StreamPart[] = e.type === 'response.failed' ? [providerError(response)] : [];
        return [...parts, ...this.builder.endAll(), ...this.builder.finishPart()];
      }
      case 'error':
        return [providerError(e)];
      default:
        return [];
    }
  }

  #itemAdded(item: Obj, outputIndex: number | undefined): StreamPart[] {
    if (item.type !== 'function_call') return [];
    const key = `item:${str(item.id) ?? `o${outputIndex ?? this.builder.callCount}`}`;
    if (outputIndex !== undefined) this.#byOutputIndex.set(outputIndex, key);
    const parts = this.builder.start(key, str(item.call_id) ?? str(item.id), str(item.name) ?? '');
    const text = str(item.arguments);
    return text ? [...parts, ...this.builder.args(key, text)] : parts;
  }

  #keyOf(e: Obj): string | undefined {
    const itemId = str(e.item_id);
    if (itemId && this.builder.has(`item:${itemId}`)) return `item:${itemId}`;
    const index = num(e.output_index);
    return index === undefined ? undefined : this.#byOutputIndex.get(index);
  }
}
