/**
 * One tool call, as a card: it appears when the model starts writing the call, its arguments
 * fill in as they stream, then it runs (with live progress), then it shows the result or the
 * error and how long it took. A call that needs a person shows Approve / Deny. `show(part)`
 * draws a chat snapshot's part, doing only what changed since the last one.
 */
import type { UIToolErrorKind, UIToolPart } from 'moat-sdk';
import { h } from './dom';

export type CardStatus = 'writing' | 'waiting' | 'running' | 'done' | 'error' | 'approval';

const LABELS: Record<CardStatus, string> = {
  writing: 'writing arguments…',
  waiting: 'queued',
  running: 'running…',
  done: 'done',
  error: 'failed',
  approval: 'needs your approval',
};

/** What a failed card's result is called, by the error's kind (the sentence under it says more). */
const KIND_LABELS: Partial<Record<UIToolErrorKind, string>> = {
  timeout: 'Timed out',
  denied: 'Denied',
  'network-denied': 'Network blocked',
  crashed: 'Crashed',
  stopped: 'Stopped',
  interrupted: 'Interrupted',
};

export class ToolCard {
  readonly element: HTMLDetailsElement;
  readonly #status: HTMLSpanElement;
  readonly #time: HTMLSpanElement;
  readonly #args: HTMLPreElement;
  readonly #progress: HTMLProgressElement;
  readonly #output: HTMLPreElement;
  readonly #result: HTMLDivElement;
  readonly #approval: HTMLDivElement;
  readonly #nested: HTMLDivElement;
  readonly #children = new Map<string, ToolCard>();
  #part: UIToolPart | undefined;
  /** How much of the part's progress is drawn. */
  #drawn = 0;

  constructor(
    readonly toolCallId: string,
    readonly name: string,
  ) {
    this.#status = h('span', { class: 'tool-status', 'data-testid': 'tool-status' });
    this.#time = h('span', { class: 'tool-time' });
    this.#args = h('pre', { class: 'tool-args', 'data-testid': 'tool-args' });
    this.#progress = h('progress', { max: '100', value: '0', hidden: '' });
    this.#output = h('pre', { class: 'tool-output', 'data-testid': 'tool-output', hidden: '' });
    this.#result = h('div', { class: 'tool-result', 'data-testid': 'tool-result', hidden: '' });
    this.#approval = h('div', { class: 'tool-approval', hidden: '' });
    this.#nested = h('div', { class: 'tool-nested', 'data-testid': 'nested-calls', hidden: '' });
    this.#progress.setAttribute('aria-label', `${name} progress`);
    this.element = h(
      'details',
      { class: 'tool-card', open: '', 'data-testid': 'tool-card', 'data-tool': name, 'data-call': toolCallId },
      h(
        'summary',
        {},
        h('span', { class: 'tool-icon', 'aria-hidden': 'true' }),
        h('code', { class: 'tool-name' }, name),
        this.#status,
        this.#time,
      ),
      h(
        'div',
        { class: 'tool-body' },
        h('div', { class: 'tool-label' }, 'Arguments'),
        this.#args,
        this.#progress,
        this.#nested,
        this.#output,
        this.#result,
        this.#approval,
      ),
    );
    this.status = 'writing';
  }

  set status(status: CardStatus) {
    this.element.dataset.status = status;
    this.#status.textContent = LABELS[status];
  }

  get status(): CardStatus {
    return this.element.dataset.status as CardStatus;
  }

  /** The arguments so far (a partial object while they stream). */
  args(value: unknown): void {
    this.#args.textContent = JSON.stringify(value, null, 2);
  }

  /** Draw the call as the chat shows it; `decide` answers an approval. */
  show(part: UIToolPart, decide: (toolCallId: string, approved: boolean) => void): void {
    const was = this.#part;
    if (part === was) return;
    this.#part = part;
    const input = part.input ?? part.partialInput;
    if (input !== undefined && input !== (was?.input ?? was?.partialInput)) this.args(input);
    if (part.rerun !== undefined && part.rerun !== was?.rerun) {
      this.rerun(part.rerun);
      this.#drawn = 0;
    }
    // `#drawn` counts every delta since the call (re)started; the part keeps only the latest ones,
    // the first `progressDropped` of them let go.
    const first = part.progressDropped ?? 0;
    for (this.#drawn = Math.max(this.#drawn, first); this.#drawn < first + part.progress.length; this.#drawn++)
      this.output(part.progress[this.#drawn - first]);
    for (const child of part.children ?? []) {
      let card = this.#children.get(child.toolCallId);
      if (!card) {
        card = new ToolCard(child.toolCallId, child.toolName);
        this.#children.set(child.toolCallId, card);
        this.nest(card);
      }
      card.show(child, decide);
    }
    if (part.state === was?.state) return;
    const took = part.startedAt !== undefined && part.endedAt !== undefined ? part.endedAt - part.startedAt : undefined;
    switch (part.state) {
      case 'input-streaming':
        this.status = 'writing';
        break;
      case 'input-available':
        this.status = 'waiting';
        break;
      case 'approval-requested':
        this.askApproval((approved) => decide(part.toolCallId, approved));
        break;
      case 'running':
        this.started();
        break;
      case 'output-available':
        this.finish(part.output ?? '', true, took);
        for (const media of part.media ?? [])
          this.#result.append(
            media.type === 'image'
              ? h('img', { class: 'attachment', src: media.url, alt: `An image ${part.toolName} returned` })
              : h('span', { class: 'attachment file' }, media.filename ?? media.mediaType ?? 'A file'),
          );
        break;
      case 'output-error':
      case 'output-denied':
        this.finish(part.error?.message ?? '', false, took, part.error?.kind);
        break;
    }
  }

  started(): void {
    this.status = 'running';
    this.#approval.hidden = true;
  }

  /** A call this one made (code calling tools): drawn inside this card. */
  nest(card: ToolCard): void {
    this.#nested.hidden = false;
    this.#nested.append(card.element);
  }

  /** A piece of streamed output: `{ progress }` moves the bar, text is appended, the rest shown. */
  output(delta: unknown): void {
    if (typeof delta === 'object' && delta !== null && typeof (delta as { progress?: unknown }).progress === 'number') {
      const { progress, ...rest } = delta as { progress: number };
      this.#progress.hidden = false;
      this.#progress.value = progress;
      this.#output.hidden = false;
      const more = Object.entries(rest).map(
        ([k, v]) => `${k}: ${typeof v === 'number' ? v.toLocaleString('en-US') : JSON.stringify(v)}`,
      );
      this.#output.textContent = [`${progress}%`, ...more].join(' · ');
      return;
    }
    this.#output.hidden = false;
    const line = delta as { level?: unknown; text?: unknown };
    if (typeof line?.text === 'string' && typeof line.level === 'string')
      this.#output.textContent += `${line.level === 'log' ? '' : `[${line.level}] `}${line.text}\n`;
    else this.#output.textContent += typeof delta === 'string' ? delta : `${JSON.stringify(delta)}\n`;
  }

  rerun(reason: string): void {
    this.#output.hidden = false;
    this.#output.textContent += `↻ run again: ${reason}\n`;
  }

  /** The outcome: a tool message's content (pretty-printed when it is JSON), and how long it ran. */
  /** The result, or (not `ok`) the error's sentence under a label saying its kind. */
  finish(content: string, ok: boolean, ms?: number, kind?: UIToolErrorKind): void {
    this.status = ok ? 'done' : 'error';
    if (ok) this.#progress.value = 100;
    this.#approval.hidden = true;
    if (ms !== undefined)
      this.#time.textContent = ms < 1000 ? `${Math.max(1, Math.round(ms))} ms` : `${(ms / 1000).toFixed(1)} s`;
    let shown = content;
    try {
      const parsed = JSON.parse(content);
      if (typeof parsed === 'object' && parsed !== null) shown = JSON.stringify(parsed, null, 2);
    } catch {}
    this.#result.hidden = false;
    this.#result.replaceChildren(
      h(
        'div',
        { class: 'tool-label', 'data-kind': kind ?? null },
        ok ? 'Result' : (KIND_LABELS[kind ?? 'failed'] ?? 'Error'),
      ),
      h('pre', { role: ok ? null : 'alert' }, shown),
    );
  }

  /** Show Approve / Deny; `decide` is called once with the person's answer. */
  askApproval(decide: (approved: boolean) => void): void {
    this.status = 'approval';
    const approve = h('button', { type: 'button', class: 'primary' }, 'Approve');
    const deny = h('button', { type: 'button' }, 'Deny');
    const answer = (approved: boolean) => {
      approve.disabled = true;
      deny.disabled = true;
      this.#status.textContent = approved ? 'approved' : 'denied';
      decide(approved);
    };
    approve.addEventListener('click', () => answer(true));
    deny.addEventListener('click', () => answer(false));
    this.#approval.replaceChildren(h('p', {}, `Run ${this.name} with these arguments?`), approve, deny);
    this.#approval.hidden = false;
  }
}
