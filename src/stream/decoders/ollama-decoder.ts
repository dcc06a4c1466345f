import { ollamaStopReason, ollamaUsage } from '../../providers/ollama';
import { arr, type Obj, obj, str } from '../../providers/wire';
import { BaseDecoder, providerError } from '../stream-decoder';
import type { StreamPart } from '../stream-part';

/**
 * Ollama `/api/chat` NDJSON lines. Each tool call arrives whole, and Ollama may give several
 * calls the same `index` (0): every entry is its own call, never merged with another.
 */
export class OllamaDecoder extends BaseDecoder {
  readonly format = 'ollama' as const;
  #count = 0;

  protected handle(e: Obj): StreamPart[] {
    if (e.error !== undefined) return [providerError(e)];
    const m = obj(e.message);
    const parts: StreamPart[] = [
      ...this.builder.text(str(m.content) ?? ''),
      ...this.builder.reasoning(str(m.thinking) ?? ''),
    ];
    for (const raw of arr(m.tool_calls)) {
      const c = obj(raw);
      const fn = obj(c.function);
      const key = `c${this.#count++}`;
      parts.push(...this.builder.start(key, str(c.id), str(fn.name) ?? ''));
      const args = fn.arguments;
      if (typeof args === 'string') parts.push(...this.builder.args(key, args));
      else if (args !== undefined && args !== null) parts.push(...this.builder.argsValue(key, args));
      parts.push(...this.builder.end(key));
    }
    const model = str(e.model);
    if (model) this.builder.meta('ollama', 'model', model);
    if (e.done === true) {
      this.builder.setUsage(ollamaUsage(e));
      this.builder.setStopReason(ollamaStopReason(e.done_reason ?? 'stop', this.builder.callCount > 0) ?? 'other');
      parts.push(...this.builder.endAll(), ...this.builder.finishPart());
    }
    return parts;
  }
}
