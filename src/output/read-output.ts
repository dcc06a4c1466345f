import type { ValidationIssue } from '../errors/message-validation-error';
import { OutputValidationError } from '../errors/output-validation-error';
import { isPlainObject } from '../json/json-value';
import { createPartialJsonParser, type PartialJsonParser, parsePartialJson } from '../json/partial-json-parser';
import type { ResolvedOutput } from './output-schema';

/**
 * The object of one answer as its text streams in, read by the linear partial parser: each delta
 * is read once, whatever the answer's length.
 *
 * @example
 * const partial = new PartialOutput();
 * partial.push('{"name": "Ad');
 * partial.take(); // { name: 'Ad' } (live: the same object, extended by later pushes)
 */
export class PartialOutput {
  readonly #parser: PartialJsonParser = createPartialJsonParser();
  #fresh = false;

  /** Read more of the answer. Text that is not JSON stops the reading (the final check says why). */
  push(delta: string): void {
    if (this.#parser.state === 'failed' || delta === '') return;
    this.#parser.push(delta);
    this.#fresh = true;
  }

  /**
   * The best-effort object when text came since the last take and the answer is, so far, a JSON
   * object; else `undefined`. Live: the parser extends it in place (clone it to keep one moment).
   */
  take(): Record<string, unknown> | undefined {
    if (!this.#fresh) return undefined;
    this.#fresh = false;
    const value = this.#parser.value;
    return this.#parser.state !== 'failed' && isPlainObject(value) ? value : undefined;
  }
}

/**
 * The final answer as the run's output: parsed and checked against the schema. Throws
 * `OutputValidationError` with the issues (`[]`-path issue when it is not JSON at all).
 * `stopReason` other than 'end' is named when the JSON breaks off (the answer was cut).
 */
export async function readOutput(text: string, output: ResolvedOutput, stopReason = 'end'): Promise<unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new OutputValidationError({ issues: [notJSON(text, stopReason)], text });
  }
  const result = await output.validate(value);
  if ('issues' in result) throw new OutputValidationError({ issues: result.issues, text });
  return result.value;
}

function notJSON(text: string, stopReason: string): ValidationIssue {
  const cut = stopReason === 'end' ? '' : ` (the answer stopped: ${stopReason})`;
  if (text.trim() === '')
    return { path: [], message: `expected a JSON object, got an empty answer${cut}`, code: 'invalid_json' };
  const { state, error } = parsePartialJson(text);
  const why = state === 'failed' ? (error as string) : 'the JSON breaks off before its end';
  return { path: [], message: `expected a JSON object, got text that is not JSON: ${why}${cut}`, code: 'invalid_json' };
}
