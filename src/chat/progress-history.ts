/**
 * What a tool part keeps of what its tool streams: the latest delta always, and before it the
 * ones that came last, as many as fit in a count and a size. A tool may stream without end (a
 * report per step, a console of a million lines, a delta of hundreds of megabytes): the chat
 * holds no more than this whatever came, and `progressDropped` counts the deltas let go, so a
 * view that draws each delta once knows where it stands.
 */
import { checkCount } from '../errors/option-checks';
import { sizeOf } from '../json/size-of';
import type { Draft } from './draft-messages';
import type { UIToolPart } from './types';

/** What `createChat` keeps of each call's progress when its options do not say. */
export const PROGRESS_LIMITS = { maxProgressEntries: 100, maxProgressChars: 100_000 };

export type ProgressLimits = typeof PROGRESS_LIMITS;

/** The limits of createChat's options, checked (a `TypeError` quoting a bad one), the defaults in their place. */
export function progressLimits(options: { maxProgressEntries?: unknown; maxProgressChars?: unknown }): ProgressLimits {
  const {
    maxProgressEntries = PROGRESS_LIMITS.maxProgressEntries,
    maxProgressChars = PROGRESS_LIMITS.maxProgressChars,
  } = options;
  return {
    maxProgressEntries: checkCount('maxProgressEntries', maxProgressEntries, { min: 1, infinite: true }),
    maxProgressChars: checkCount('maxProgressChars', maxProgressChars, { infinite: true }),
  };
}

export class ProgressHistory {
  readonly #entries: number;
  readonly #chars: number;
  /** Per call that is streaming: the sizes of the deltas its part holds, in the same order, and their sum. */
  readonly #kept = new Map<string, { sizes: number[]; chars: number }>();

  constructor(limits: ProgressLimits) {
    this.#entries = limits.maxProgressEntries;
    this.#chars = limits.maxProgressChars;
  }

  /** A delta came: it goes at the end of the part's `progress` (an array the caller owns), the oldest let go past the limits. */
  push(part: Draft<UIToolPart>, delta: unknown): void {
    const progress = part.progress as unknown[];
    let kept = this.#kept.get(part.toolCallId);
    // Measured afresh when the part holds other deltas than the ones measured (the call run again, say).
    if (kept?.sizes.length !== progress.length) {
      const sizes = progress.map((d) => this.#size(d));
      kept = { sizes, chars: sizes.reduce((a, b) => a + b, 0) };
      this.#kept.set(part.toolCallId, kept);
    }
    const size = this.#size(delta);
    progress.push(delta);
    kept.sizes.push(size);
    kept.chars += size;
    let drop = 0;
    while (progress.length - drop > 1 && (progress.length - drop > this.#entries || kept.chars > this.#chars))
      kept.chars -= kept.sizes[drop++] as number;
    if (drop === 0) return;
    progress.splice(0, drop);
    kept.sizes.splice(0, drop);
    part.progressDropped = (part.progressDropped ?? 0) + drop;
  }

  /** A part as a saved thread gives it (a script's console lines): kept as if its deltas had come one by one. */
  fit(part: Draft<UIToolPart>): void {
    const all = part.progress;
    if (all.length <= 1) return;
    part.progress = [];
    for (const delta of all) this.push(part, delta);
    this.forget(part.toolCallId);
  }

  /** The call streams no more (it ended, or runs again from the start): its sizes go. */
  forget(toolCallId: string): void {
    this.#kept.delete(toolCallId);
  }

  clear(): void {
    this.#kept.clear();
  }

  /**
   * About how many characters a delta's JSON text has, counted only until past the limit; a value
   * JSON would not write as it is (a Map, bytes, a BigInt) is too big: it stays only while it is the latest.
   */
  #size(delta: unknown): number {
    return this.#chars === Infinity ? 0 : sizeOf(delta, this.#chars, { json: true });
  }
}
