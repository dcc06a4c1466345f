/**
 * The conversation on the page, drawn from the chat's snapshots (`createChat`): the person's
 * messages, the model's answers (Markdown, streamed, parsed again at most once a frame) and a
 * card per tool call, in the order they happened. Each snapshot is compared with the one drawn
 * before: only what changed is drawn again.
 */
import type { ChatSnapshot, UIMessage, UIPart } from 'moat-sdk';
import { h } from './dom';
import { renderMarkdown } from './markdown';
import { ToolCard } from './tool-card';

export interface ChatViewActions {
  approve(toolCallId: string, approved: boolean): void;
  retry(): void;
  /** What an error says to a person. */
  explain(error: Error): string;
  /** What an empty conversation shows. */
  welcome(): HTMLElement;
}

const STOPPED: Record<string, string> = {
  aborted: 'Stopped.',
  'max-steps': 'Stopped after the most steps a run may take.',
  length: 'The model reached its output limit.',
};

/** One drawn part: its element (a tool's card sits in a row shared with the tools beside it). */
interface Block {
  key: string;
  part: UIPart;
  element: HTMLElement;
  card?: ToolCard;
  row?: HTMLElement;
}

/** A message of either side, drawn again only where its parts changed. */
class MessageView {
  readonly element: HTMLElement;
  #message: UIMessage | undefined;
  #blocks: Block[] = [];
  #note: HTMLElement | undefined;

  constructor(
    readonly role: UIMessage['role'],
    private readonly decide: ChatViewActions['approve'],
  ) {
    this.element =
      role === 'user'
        ? h('article', { class: 'message user', 'data-testid': 'user' })
        : h('article', { class: 'message assistant', 'data-testid': 'assistant' });
  }

  show(message: UIMessage): void {
    if (message === this.#message) return;
    this.#message = message;
    if (this.role === 'user') {
      // A person's message is drawn once: its text, then a thumbnail or a name per attachment.
      const text = message.parts.map((p) => ('text' in p ? p.text : '')).join('');
      const attached = message.parts.flatMap((p) =>
        p.type === 'image'
          ? [h('img', { class: 'attachment', src: p.url, alt: p.filename ?? 'An attached image' })]
          : p.type === 'file'
            ? [h('span', { class: 'attachment file' }, p.filename ?? p.mediaType ?? 'A file')]
            : [],
      );
      this.element.replaceChildren(...(text ? [h('p', {}, text)] : []), ...attached);
      return;
    }
    const parts = message.parts;
    let same = 0;
    while (
      same < parts.length &&
      same < this.#blocks.length &&
      this.#blocks[same]?.key === keyOf(parts[same] as UIPart)
    )
      same++;
    for (const block of this.#blocks.splice(same)) {
      block.element.remove();
      if (block.row && block.row.childElementCount === 0) block.row.remove();
    }
    for (let i = 0; i < same; i++) this.#draw(this.#blocks[i] as Block, parts[i] as UIPart);
    for (let i = same; i < parts.length; i++) this.#add(parts[i] as UIPart);
    const stopped = message.stopReason ? STOPPED[message.stopReason] : undefined;
    if (stopped && this.#note?.textContent !== stopped) {
      this.#note?.remove();
      this.#note = h('div', { class: 'note info' }, h('span', {}, stopped));
    } else if (!stopped) {
      this.#note?.remove();
      this.#note = undefined;
    }
    if (this.#note && this.element.lastElementChild !== this.#note) this.element.append(this.#note);
  }

  #add(part: UIPart): void {
    const key = keyOf(part);
    const last = this.#blocks.at(-1);
    let block: Block;
    if (part.type === 'tool') {
      const card = new ToolCard(part.toolCallId, part.toolName);
      const row = last?.row ?? h('div', { class: 'tool-row' });
      if (!row.isConnected) this.#append(row);
      row.append(card.element);
      block = { key, part, element: card.element, card, row };
    } else if (part.type === 'reasoning') {
      const element = h(
        'details',
        { class: 'reasoning' },
        h('summary', {}, 'Reasoning'),
        h('div', { class: 'markdown' }),
      );
      this.#append(element);
      block = { key, part, element };
    } else if (part.type === 'output') {
      const element = h('pre', { class: 'output', 'data-testid': 'output' });
      this.#append(element);
      block = { key, part, element };
    } else {
      const element = h('div', { class: 'markdown', 'data-testid': 'answer' });
      this.#append(element);
      block = { key, part, element };
    }
    this.#blocks.push(block);
    this.#draw(block, part, true);
  }

  /** New blocks go before the closing note. */
  #append(element: HTMLElement): void {
    if (this.#note?.parentNode === this.element) this.element.insertBefore(element, this.#note);
    else this.element.append(element);
  }

  #draw(block: Block, part: UIPart, first = false): void {
    if (part === block.part && !first) return;
    block.part = part;
    if (part.type === 'tool') block.card?.show(part, this.decide);
    else if (part.type === 'text') renderMarkdownSoon(block.element, part.text);
    else if (part.type === 'reasoning') renderMarkdownSoon(block.element.lastElementChild as HTMLElement, part.text);
    else if (part.type === 'output') block.element.textContent = JSON.stringify(part.value, null, 2) ?? '';
  }
}

/** Markdown waiting for the next frame: a long answer is parsed once a frame, not once a chunk. */
const markdown = new Map<HTMLElement, string>();

function renderMarkdownSoon(element: HTMLElement, text: string): void {
  if (markdown.size === 0)
    requestAnimationFrame(() => {
      for (const [target, source] of markdown) renderMarkdown(target, source);
      markdown.clear();
    });
  markdown.set(element, text);
}

const keyOf = (part: UIPart) => (part.type === 'tool' ? `tool:${part.toolCallId}` : part.type);

export class ChatView {
  readonly #log: HTMLElement;
  readonly #actions: ChatViewActions;
  readonly #views = new Map<string, MessageView>();
  #welcome: HTMLElement | undefined;
  #error: { error: Error; element: HTMLElement } | undefined;
  #shown: ChatSnapshot | undefined;

  constructor(log: HTMLElement, actions: ChatViewActions) {
    this.#log = log;
    this.#actions = actions;
  }

  /** Draw a snapshot: only what changed since the last one. */
  render(snapshot: ChatSnapshot): void {
    const was = this.#shown;
    if (snapshot === was) return;
    this.#shown = snapshot;
    const log = this.#log;
    const stick = log.scrollHeight - log.scrollTop - log.clientHeight < 160;
    const empty = snapshot.messages.length === 0 && snapshot.status !== 'streaming';
    if (empty && !this.#welcome) {
      this.#welcome = this.#actions.welcome();
      log.prepend(this.#welcome);
    } else if (!empty && this.#welcome) {
      this.#welcome.remove();
      this.#welcome = undefined;
    }
    if (snapshot.messages !== was?.messages) this.#messages(snapshot.messages);
    this.#showError(snapshot.status === 'error' ? snapshot.error : undefined);
    log.setAttribute('aria-busy', String(snapshot.status === 'streaming'));
    if (stick) log.scrollTop = log.scrollHeight;
  }

  /** A problem of the page's own (its settings), with a way out; it goes once acted on. */
  notice(text: string, label: string, act: () => void): void {
    const button = h('button', { type: 'button' }, label);
    const note = h('div', { class: 'note error', role: 'alert' }, h('span', {}, text), button);
    button.addEventListener('click', () => {
      note.remove();
      act();
    });
    this.#log.append(note);
  }

  #messages(messages: readonly UIMessage[]): void {
    const ids = new Set<string>();
    let next = this.#welcome ? this.#welcome.nextElementSibling : this.#log.firstElementChild;
    for (const message of messages) {
      ids.add(message.id);
      let view = this.#views.get(message.id);
      if (!view) {
        view = new MessageView(message.role, this.#actions.approve);
        this.#views.set(message.id, view);
      }
      view.show(message);
      if (view.element !== next) this.#log.insertBefore(view.element, next);
      next = view.element.nextElementSibling;
    }
    for (const [id, view] of this.#views)
      if (!ids.has(id)) {
        view.element.remove();
        this.#views.delete(id);
      }
  }

  #showError(error: Error | undefined): void {
    if (error === this.#error?.error) return;
    this.#error?.element.remove();
    this.#error = undefined;
    if (!error) return;
    const button = h('button', { type: 'button' }, 'Retry');
    button.addEventListener('click', () => this.#actions.retry());
    const element = h(
      'div',
      { class: 'note error', role: 'alert' },
      h('span', {}, this.#actions.explain(error)),
      button,
    );
    this.#log.append(element);
    this.#error = { error, element };
  }
}
