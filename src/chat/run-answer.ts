/**
 * The answer a run writes: which message it is (made the first time something is written to
 * it), where its current step's parts start (text of a step runs on within it, not into the
 * next), and how much of it was saved (what a retry keeps).
 */
import type { AgentStopReason } from '../agent/types';
import type { Draft, DraftMessages } from './draft-messages';
import type { UIOutputPart } from './types';

export class RunAnswer {
  readonly #drafts: DraftMessages;
  readonly #newId: () => string;
  #at: number | undefined;
  #stepStart = 0;
  #committed = 0;
  #made = false;
  #outputStep = false;

  constructor(drafts: DraftMessages, newId: () => string) {
    this.#drafts = drafts;
    this.#newId = newId;
  }

  /** The current step answers with a structured output (its text, the output's JSON, is not shown). */
  get outputStep(): boolean {
    return this.#outputStep;
  }

  /** No run writes any more (another thread is shown, a person wrote). */
  end(): void {
    this.#at = undefined;
  }

  /** A new message's run writes a new answer; a run that carries on adds to the last answer. */
  begin(carriesOn: boolean): void {
    const messages = this.#drafts.messages;
    const last = messages.length - 1;
    this.#at = carriesOn && messages[last]?.role === 'assistant' ? last : undefined;
    this.#committed = this.#stepStart = this.#length();
    this.#made = false;
    this.#outputStep = false;
  }

  /** A step was saved: a retry keeps what it wrote. */
  stepFinished(): void {
    this.#stepStart = this.#committed = this.#length();
    this.#outputStep = false;
  }

  /** Where the answer is, made the first time something is written to it. */
  at(): number {
    if (this.#at === undefined) {
      this.#at = this.#drafts.messages.length;
      this.#made = true;
      this.#drafts.ownMessages().push(this.#drafts.new({ id: this.#newId(), role: 'assistant', parts: [] }));
    }
    return this.#at;
  }

  /** Why the run ended, on its answer (one is made only to say it ended otherwise than by answering). */
  stopped(reason: AgentStopReason): void {
    if (this.#at !== undefined || reason !== 'end') this.#drafts.ownMessage(this.at()).stopReason = reason;
  }

  text(type: 'text' | 'reasoning', delta: string): void {
    const parts = this.#drafts.ownParts(this.at());
    const last = parts.length - 1;
    const part = parts[last];
    if (part?.type === type && last >= this.#stepStart) {
      const own = this.#drafts.own(part) as Draft<typeof part>;
      own.text += delta;
      parts[last] = own;
    } else parts.push(this.#drafts.new({ type, text: delta }));
  }

  /** The current step's output part (taking the place of its text, which is the output's JSON), changed. */
  output(change: (part: Draft<UIOutputPart>) => void): void {
    const parts = this.#drafts.ownParts(this.at());
    let at = parts.findLastIndex((p, i) => i >= this.#stepStart && (p.type === 'output' || p.type === 'text'));
    if (at < 0 || parts[at]?.type === 'text') {
      const part = this.#drafts.new<UIOutputPart>({ type: 'output', value: undefined, partial: true });
      if (at < 0) at = parts.push(part) - 1;
      else parts[at] = part;
    }
    this.#outputStep = true;
    const part = this.#drafts.own(parts[at] as UIOutputPart) as Draft<UIOutputPart>;
    parts[at] = part;
    change(part);
  }

  /**
   * Drop what the run wrote beyond its last saved step: its partial text, its unfinished calls,
   * and the answer itself when the run made it and nothing of it was saved. False when it wrote
   * nothing.
   */
  rollback(): boolean {
    const at = this.#at;
    if (at === undefined) return false;
    this.#drafts.unindex(this.#drafts.partsOf(at).slice(this.#committed));
    if (this.#made && this.#committed === 0) {
      this.#drafts.ownMessages().splice(at, 1);
      this.#at = undefined;
    } else {
      const message = this.#drafts.ownMessage(at);
      message.parts = message.parts.slice(0, this.#committed);
      delete message.stopReason;
    }
    return true;
  }

  /** How many parts the answer has (none before it has one). */
  #length(): number {
    return this.#at === undefined ? 0 : this.#drafts.partsOf(this.#at).length;
  }
}
