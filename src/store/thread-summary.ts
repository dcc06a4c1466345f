/** A thread as a checkpointer's `threads()` lists it. */
export interface ThreadSummary {
  threadId: string;
  /** When its newest checkpoint was written (ms since the epoch). */
  updatedAt: number;
}

/** Newest first; a tie broken by thread id, so that the order is stable. */
export function byRecency(list: ThreadSummary[]): ThreadSummary[] {
  return list.sort(
    (a, b) => b.updatedAt - a.updatedAt || (a.threadId < b.threadId ? -1 : a.threadId > b.threadId ? 1 : 0),
  );
}
