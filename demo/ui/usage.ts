/**
 * The thread's token count in the top bar: this run's and the whole thread's (kept with its
 * checkpoints, so a reload shows it), drawn from the chat's snapshot.
 */
import type { ChatSnapshot } from 'moat-sdk';
import { h } from './dom';

type UsageTotals = ChatSnapshot['usage']['thread'];

/** A span for the status bar, and how to draw a snapshot's usage into it. */
export function usageBadge(): { element: HTMLElement; draw(usage: ChatSnapshot['usage']): void } {
  const element = h('span', { class: 'usage', 'data-testid': 'usage', title: 'tokens: this run · this thread' });
  let shown: unknown;
  return {
    element,
    draw(usage) {
      // The snapshot's usage is a new object only when a step finished.
      if (usage === shown) return;
      shown = usage;
      const tokens = (u: UsageTotals) => compact(u.inputTokens + u.outputTokens);
      element.textContent =
        usage.thread.steps === 0 ? '' : `${tokens(usage.run)} run · ${tokens(usage.thread)} thread tokens`;
      element.title = `this run: ${usage.run.inputTokens} in, ${usage.run.outputTokens} out (${usage.run.cachedInputTokens} cached); this thread: ${usage.thread.inputTokens} in, ${usage.thread.outputTokens} out over ${usage.thread.steps} model calls`;
    },
  };
}

function compact(n: number): string {
  return n < 1_000 ? String(n) : n < 1_000_000 ? `${(n / 1_000).toFixed(1)}k` : `${(n / 1_000_000).toFixed(1)}M`;
}
