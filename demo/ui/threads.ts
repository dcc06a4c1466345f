/**
 * The conversations sidebar: every saved thread (newest first, titled by its first message),
 * drawn from the chat's snapshot; "New chat" and delete go to the chat.
 */
import type { ChatThread } from 'moat-sdk';
import { h } from './dom';

export interface ThreadListEvents {
  open(threadId: string): void;
  remove(threadId: string): void;
}

export class ThreadList {
  readonly #list: HTMLUListElement;
  readonly #events: ThreadListEvents;
  #shown: { threads: readonly ChatThread[]; current: string } | undefined;

  constructor(list: HTMLUListElement, events: ThreadListEvents) {
    this.#list = list;
    this.#events = events;
  }

  /** Draw the list, `current` marked (again only when either changed). */
  render(threads: readonly ChatThread[], current: string): void {
    if (this.#shown?.threads === threads && this.#shown.current === current) return;
    this.#shown = { threads, current };
    const items = threads.map(({ threadId, title: first, updatedAt }) => {
      const title = titleOf(first);
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
      return h('li', { 'data-testid': 'thread' }, open, remove);
    });
    this.#list.replaceChildren(...items);
    if (items.length === 0) this.#list.append(h('li', { class: 'empty' }, 'No conversations yet.'));
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
