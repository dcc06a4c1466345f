import { textOf } from '../messages/text-of';
import type { ChatAgent, ChatThread } from './types';

/** A chat's list of saved threads, each titled by the first line of its first message (read once). */
export class ThreadList {
  readonly #agent: ChatAgent;
  readonly #titles = new Map<string, string>();

  constructor(agent: ChatAgent) {
    this.#agent = agent;
  }

  /** A deleted thread's title is forgotten. */
  forget(threadId: string): void {
    this.#titles.delete(threadId);
  }

  /** The agent's saved threads, newest first; `known` itself when nothing of it changed. */
  async read(known: readonly ChatThread[]): Promise<readonly ChatThread[]> {
    const list = await this.#agent.threads();
    const threads: ChatThread[] = await Promise.all(
      list.map(async ({ threadId, updatedAt }) => ({ threadId, updatedAt, title: await this.#title(threadId) })),
    );
    const same =
      known.length === threads.length &&
      threads.every((t, i) => {
        const k = known[i];
        return k?.threadId === t.threadId && k.updatedAt === t.updatedAt && k.title === t.title;
      });
    return same ? known : threads;
  }

  async #title(threadId: string): Promise<string> {
    let title = this.#titles.get(threadId);
    if (title === undefined) {
      const first = (await this.#agent.thread(threadId))?.messages.find((m) => m.role === 'user');
      const line = (first ? textOf(first.content) : '').trim().split('\n')[0] ?? '';
      title = line.length > 100 ? `${line.slice(0, 99)}…` : line;
      this.#titles.set(threadId, title);
    }
    return title;
  }
}
