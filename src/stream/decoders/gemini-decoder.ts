import { geminiStopReason, geminiUsage } from '../../providers/gemini';
import { arr, type Obj, obj, str } from '../../providers/wire';
import { parseJsonPath } from '../json-path';
import { BaseDecoder, providerError } from '../stream-decoder';
import type { StreamPart } from '../stream-part';

/**
 * Gemini `streamGenerateContent?alt=sse` chunks. A `functionCall` with `args` is whole. Vertex's
 * streamed calls open with `{ name, willContinue: true }`, send values by JSON path in
 * `partialArgs` (a string value continues over several entries while `willContinue`), and close
 * with a `functionCall` that has neither name nor `willContinue`. Thought signatures are kept in
 * `metadata.gemini` for `toGemini`.
 */
export class GeminiDecoder extends BaseDecoder {
  readonly format = 'gemini' as const;
  #count = 0;
  #open: string | undefined;
  #continuing: string | undefined;
  #textSignature = false;

  protected handle(e: Obj): StreamPart[] {
    if (e.error !== undefined) return [providerError(e)];
    this.builder.setId(e.responseId);
    const model = str(e.modelVersion);
    if (model) this.builder.meta('gemini', 'model', model);
    this.builder.setUsage(geminiUsage(e.usageMetadata));
    const candidate = obj(arr(e.candidates)[0]);
    const parts: StreamPart[] = [];
    for (const raw of arr(obj(candidate.content).parts)) {
      const part = obj(raw);
      const signature = str(part.thoughtSignature);
      if (part.functionCall !== undefined) parts.push(...this.#functionCall(obj(part.functionCall), signature));
      else if (typeof part.text === 'string') {
        parts.push(...(part.thought === true ? this.builder.reasoning(part.text) : this.builder.text(part.text)));
        if (signature && !this.#textSignature) {
          this.#textSignature = true;
          this.builder.meta('gemini', 'textThoughtSignature', signature);
        }
      }
    }
    const reason = candidate.finishReason;
    if (typeof reason === 'string') {
      parts.push(...this.builder.endAll());
      this.builder.setStopReason(geminiStopReason(reason, this.builder.callCount > 0) ?? 'other');
      parts.push(...this.builder.finishPart());
    }
    return parts;
  }

  #functionCall(fc: Obj, signature: string | undefined): StreamPart[] {
    const parts: StreamPart[] = [];
    const name = str(fc.name);
    if (name) {
      if (this.#open) parts.push(...this.builder.end(this.#open));
      const key = `c${this.#count++}`;
      const given = str(fc.id);
      parts.push(...this.builder.start(key, given, name));
      const id = this.builder.idOf(key) as string;
      if (given) this.builder.meta('gemini', 'providerIds', [...this.#providerIds(), id]);
      if (signature) this.builder.metaEntry('gemini', 'thoughtSignatures', id, signature);
      this.#open = key;
      this.#continuing = undefined;
    }
    const key = this.#open;
    if (!key) return parts;
    if (fc.args !== undefined) parts.push(...this.builder.argsValue(key, fc.args));
    for (const raw of arr(fc.partialArgs)) parts.push(...this.#partialArg(key, obj(raw)));
    if (fc.willContinue !== true) {
      parts.push(...this.builder.end(key));
      this.#open = undefined;
    }
    return parts;
  }

  #partialArg(key: string, pa: Obj): StreamPart[] {
    const jsonPath = str(pa.jsonPath) ?? '';
    const path = parseJsonPath(jsonPath);
    if (!path) {
      return [
        {
          type: 'error',
          code: 'malformed-event',
          message: `Unreadable jsonPath ${JSON.stringify(pa.jsonPath)} skipped.`,
          raw: pa,
        },
      ];
    }
    let value: unknown;
    if ('stringValue' in pa) value = str(pa.stringValue) ?? '';
    else if ('numberValue' in pa) value = pa.numberValue;
    else if ('boolValue' in pa) value = pa.boolValue;
    else if ('nullValue' in pa) value = null;
    else return [];
    const append = typeof value === 'string' && this.#continuing === jsonPath;
    this.#continuing = pa.willContinue === true && typeof value === 'string' ? jsonPath : undefined;
    if (append && value === '') return [];
    return this.builder.argsAtPath(key, path, value, append);
  }

  #providerIds(): string[] {
    return arr(obj(this.builder.metaOf('gemini')).providerIds) as string[];
  }
}
