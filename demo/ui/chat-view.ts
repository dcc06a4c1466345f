/**
 * The conversation on the page: the person's messages, the model's answers (Markdown, streamed
 * token by token, redrawn at most once a frame) and a card per tool call, in the order they
 * happened. It draws a saved thread too, pending approvals included.
 */
import type { AgentEvent, Message, NestedCall, ToolCall } from 'moat';
import { h } from './dom';
import { renderMarkdown } from './markdown';
import { ToolCard } from './tool-card';

type Decide = (call: ToolCall, approved: boolean) => void;

/** One answer of the model: text blocks and rows of tool cards, in order. */
class AnswerView {
  readonly element = h('article', { class: 'message assistant', 'data-testid': 'assistant' });
  #text: { element: HTMLElement; raw: string } | undefined;
  #row: HTMLElement | undefined;
  #frame = 0;

  text(delta: string): void {
    if (!this.#text) {
      const element = h('div', { class: 'markdown', 'data-testid': 'answer' });
      this.element.append(element);
      this.#text = { element, raw: '' };
      this.#row = undefined;
    }
    this.#text.raw += delta;
    this.#frame ||= requestAnimationFrame(() => this.flush());
  }

  /** Draw the text now (the end of a step, or a thread loaded at once). */
  flush(): void {
    if (this.#frame) cancelAnimationFrame(this.#frame);
    this.#frame = 0;
    if (this.#text) renderMarkdown(this.#text.element, this.#text.raw);
  }

  card(card: ToolCard): void {
    if (!this.#row) {
      this.#row = h('div', { class: 'tool-row' });
      this.element.append(this.#row);
      this.flush();
      this.#text = undefined;
    }
    this.#row.append(card.element);
  }

  /** What comes next starts a new block (the next step). */
  seal(): void {
    this.flush();
    this.#text = undefined;
    this.#row = undefined;
  }

  note(text: string, kind: 'info' | 'error' = 'info', action?: { label: string; run: () => void }): void {
    this.seal();
    const note = h('div', { class: `note ${kind}`, role: kind === 'error' ? 'alert' : null }, h('span', {}, text));
    if (action) {
      const button = h('button', { type: 'button' }, action.label);
      button.addEventListener('click', () => {
        note.remove();
        action.run();
      });
      note.append(button);
    }
    this.element.append(note);
  }

  get isEmpty(): boolean {
    return this.element.childElementCount === 0;
  }
}

export class ChatView {
  readonly #log: HTMLElement;
  readonly #decide: Decide;
  readonly #cards = new Map<string, ToolCard>();
  #answer: AnswerView | undefined;

  constructor(log: HTMLElement, decide: Decide) {
    this.#log = log;
    this.#decide = decide;
  }

  clear(): void {
    this.#log.replaceChildren();
    this.#cards.clear();
    this.#answer = undefined;
  }

  user(text: string): void {
    this.#answer = undefined;
    this.#log.querySelector('.welcome')?.remove();
    this.#append(h('article', { class: 'message user', 'data-testid': 'user' }, h('p', {}, text)));
  }

  /** Start a run's answer (one per run: its steps add blocks to it). */
  begin(): void {
    this.#answer = new AnswerView();
    this.#append(this.#answer.element);
    this.#log.setAttribute('aria-busy', 'true');
  }

  end(): void {
    this.#answer?.seal();
    if (this.#answer?.isEmpty) this.#answer.element.remove();
    this.#log.setAttribute('aria-busy', 'false');
  }

  /** Draw one event of a run. */
  apply(event: AgentEvent): void {
    const answer = this.#current();
    switch (event.type) {
      case 'text-delta':
        answer.text(event.delta);
        break;
      case 'tool-input-start':
        this.#card(event.toolCallId, event.name, answer);
        break;
      case 'tool-input-delta':
        this.#cards.get(event.toolCallId)?.args(event.partialArgs);
        break;
      case 'tool-call': {
        const card = this.#card(event.toolCall.id, event.toolCall.name, answer);
        card.args(event.toolCall.args);
        card.status = 'waiting';
        break;
      }
      case 'tool-started': {
        const parent = event.parentToolCallId ? this.#cards.get(event.parentToolCallId) : undefined;
        const card = this.#card(event.toolCallId, event.name, parent ?? answer);
        if (parent) card.args(event.args);
        card.started();
        break;
      }
      case 'tool-output-delta':
        this.#cards.get(event.toolCallId)?.output(event.delta);
        break;
      case 'tool-rerun':
        this.#cards.get(event.toolCallId)?.rerun(event.reason);
        break;
      case 'tool-finished':
        this.#card(event.toolCallId, event.message.name, answer).finish(
          event.message.content,
          event.message.status === 'success',
        );
        break;
      case 'tool-error': {
        const card = this.#cards.get(event.toolCallId);
        card?.finish(event.message?.content ?? `${event.error.name}: ${event.error.message}`, false);
        break;
      }
      case 'approval-request':
        this.#ask(event.toolCall, answer);
        break;
      case 'step-finish':
        answer.seal();
        break;
      case 'finish':
        if (event.stopReason === 'aborted') answer.note('Stopped.');
        else if (event.stopReason === 'max-steps') answer.note('Stopped after the most steps a run may take.');
        else if (event.stopReason === 'length') answer.note('The model reached its output limit.');
        break;
      default:
        break;
    }
    this.#scroll();
  }

  /** An error of the run, with a way to try again. */
  error(text: string, retry: () => void): void {
    const answer = this.#current();
    answer.note(text, 'error', { label: 'Retry', run: retry });
    this.#scroll();
  }

  /** A saved thread, drawn at once. */
  thread(messages: readonly Message[], pending: readonly ToolCall[]): void {
    this.clear();
    for (const message of messages) {
      if (message.role === 'user') this.user(message.content);
      else if (message.role === 'assistant') {
        if (!this.#answer) this.begin();
        const answer = this.#answer as AnswerView;
        if (message.content) answer.text(message.content);
        for (const call of message.toolCalls) {
          const card = this.#card(call.id, call.name, answer);
          card.args(call.args);
          card.status = 'waiting';
        }
        answer.seal();
      } else if (message.role === 'tool') {
        const card = this.#cards.get(message.toolCallId);
        if (!card) continue;
        this.#script(card, message.artifact);
        card.finish(message.content, message.status === 'success');
      }
    }
    for (const call of pending) if (this.#answer) this.#ask(call, this.#answer);
    this.end();
    this.#scroll();
  }

  /** What a `run_javascript` call did, kept in its artifact: its console and its calls, nested. */
  #script(card: ToolCard, artifact: unknown): void {
    if (typeof artifact !== 'object' || artifact === null) return;
    const { logs, calls } = artifact as { logs?: unknown; calls?: unknown };
    if (Array.isArray(logs)) for (const entry of logs) card.output(entry);
    if (!Array.isArray(calls)) return;
    for (const call of calls as Partial<NestedCall>[]) {
      if (typeof call?.toolCallId !== 'string' || typeof call.name !== 'string') continue;
      const nested = this.#card(call.toolCallId, call.name, card);
      nested.args(call.args);
      nested.finish(typeof call.content === 'string' ? call.content : '', call.ok === true);
    }
  }

  #current(): AnswerView {
    if (!this.#answer) this.begin();
    return this.#answer as AnswerView;
  }

  /** The call's card, made the first time and placed in the answer (or inside its caller's card). */
  #card(id: string, name: string, place: AnswerView | ToolCard): ToolCard {
    let card = this.#cards.get(id);
    if (!card) {
      card = new ToolCard(id, name);
      this.#cards.set(id, card);
      if (place instanceof ToolCard) place.nest(card);
      else place.card(card);
    }
    return card;
  }

  #ask(call: ToolCall, answer: AnswerView): void {
    const card = this.#card(call.id, call.name, answer);
    card.args(call.args);
    card.askApproval((approved) => this.#decide(call, approved));
  }

  #append(element: HTMLElement): void {
    this.#log.append(element);
    this.#scroll();
  }

  #scroll(): void {
    const log = this.#log;
    if (log.scrollHeight - log.scrollTop - log.clientHeight < 160) log.scrollTop = log.scrollHeight;
  }
}
