/**
 * The conversations sidebar: every saved thread (newest first, titled by its first message),
 * "New chat", and delete.
 */
import type { Agent } from 'moat';
import { h } from './dom';

export interface ThreadListEvents {
  open(threadId: string): void;
  remove(threadId: string): void;
}

export class ThreadList {
  readonly #list: HTMLUListElement;
  readonly #events: ThreadListEvents;
  readonly #titles = new Map<string, string>();

  constructor(list: HTMLUListElement, events: ThreadListEvents) {
    this.#list = list;
    this.#events = events;
  }

  /** Redraw from the checkpointer, `current` marked. */
  async refresh(agent: Agent, current: string | undefined): Promise<void> {
    const threads = await agent.threads();
    const items: HTMLLIElement[] = [];
    for (const { threadId, updatedAt } of threads) {
      let title = this.#titles.get(threadId);
      if (title === undefined) {
        const first = (await agent.thread(threadId))?.messages.find((m) => m.role === 'user')?.content;
        title = titleOf(first ?? 'Untitled');
        this.#titles.set(threadId, title);
      }
      const open = h(
        'button',
        { type: 'button', class: 'thread-open', 'aria-current': threadId === current ? 'page' : null },
        h('span', { class: 'thread-title' }, title),
        h('time', { datetime: new Date(updatedAt).toISOString() }, whenOf(updatedAt)),
      );
      open.addEventListener('click', () => this.#events.open(threadId));
      const remove = h(
        'button',
        { type: 'button', class: 'thread-delete icon', 'aria-label': `Delete “${title}”` },
        '×',
      );
      remove.addEventListener('click', () => this.#events.remove(threadId));
      items.push(h('li', { 'data-testid': 'thread' }, open, remove));
    }
    this.#list.replaceChildren(...items);
    if (items.length === 0) this.#list.append(h('li', { class: 'empty' }, 'No conversations yet.'));
  }

  /** A title for a thread just started (before its first save). */
  name(threadId: string, firstMessage: string): void {
    if (!this.#titles.has(threadId)) this.#titles.set(threadId, titleOf(firstMessage));
  }

  forget(threadId: string): void {
    this.#titles.delete(threadId);
  }
}

function titleOf(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 48 ? `${line.slice(0, 47)}…` : line || 'Untitled';
}

function whenOf(ms: number): string {
  const date = new Date(ms);
  const today = new Date();
  return date.toDateString() === today.toDateString()
    ? date.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString([], { month: 'short', day: 'numeric' });
}
