import { CheckpointConflictError } from '../errors/checkpoint-conflict-error';
import { CheckpointError } from '../errors/checkpoint-error';
import { type ToolFailure, toolFailureFrom } from '../errors/tool-failure';
import { isPlainObject, type JSONValue } from '../json/json-value';
import type { AIMessage, Message, ToolCall, ToolMessage, Usage } from '../messages/types';
import type { Checkpoint, Checkpointer } from '../store/checkpointer';
import { byRecency } from '../store/thread-summary';
import type { SentRanges } from './fit-context';
import type { ThreadSummaryNote } from './summary';
import { totalsFrom, type UsageTotals } from './usage';

/** What a checkpoint keeps of the model call that made it (`metadata.step`). */
export interface StepRecord {
  /** `provider:modelId` of the model that answered. */
  model: string;
  usage?: Usage;
  cost?: number;
  /**
   * What of the thread was sent, when the request was fitted to a context window: ranges of
   * `messages` (`[start, end)`), the estimated size in tokens, and, when a summary of the
   * messages before the first range went with the system prompt, where it ends.
   */
  sent?: { ranges: SentRanges; tokens: number; summary?: number };
}

function noteFrom(value: unknown): ThreadSummaryNote | undefined {
  if (!isPlainObject(value) || typeof value.text !== 'string' || !Number.isInteger(value.upTo)) return undefined;
  return { upTo: value.upTo as number, text: value.text };
}

/**
 * A conversation as the agent holds it between steps: the messages, the state, and the calls
 * that wait for approval or were running when the page went away. Saved as one checkpoint per
 * completed step (`metadata` keeps the agent's own fields).
 */
export class Thread {
  readonly id: string;
  messages: Message[];
  state: Record<string, unknown>;
  /** Calls a person has yet to decide on. */
  pending: ToolCall[];
  /** Approved calls that were started; a reload finds them here and never runs them again. */
  running: ToolCall[];
  /** The thread's usage over all its steps (saved with each checkpoint). */
  totals: UsageTotals;
  /**
   * Its failed calls as a person reads them, by call id (saved with each checkpoint): a reload
   * shows each error result as it was shown live, which its text, the model's, cannot say.
   */
  failures: Record<string, ToolFailure>;
  /** The summary of its earliest messages, when a summarizer made one (saved with each checkpoint). */
  summary: ThreadSummaryNote | undefined;
  /**
   * What the run did could not be kept (a save failed): the run ends with that error, even when
   * it was aborted.
   */
  unsaved = false;
  /** Whether `save` writes: a run with `save: false` keeps nothing of what it does. */
  saving = true;
  #seq: number;
  #lastId: string | undefined;
  #lastAt: number;

  private constructor(
    id: string,
    from?: { messages: Message[]; state: Record<string, unknown>; meta: unknown; id: string; at: number },
  ) {
    this.id = id;
    this.messages = from ? [...from.messages] : [];
    this.state = from ? { ...from.state } : {};
    const meta = isPlainObject(from?.meta) ? from.meta : {};
    this.#seq = typeof meta.seq === 'number' ? meta.seq : 0;
    this.pending = callsIn(meta.pendingApprovals, id);
    this.running = callsIn(meta.running, id);
    this.totals = totalsFrom(meta.totals);
    this.summary = noteFrom(meta.summary);
    this.failures = failuresIn(meta.toolFailures);
    this.#lastId = from?.id;
    this.#lastAt = from?.at ?? 0;
  }

  /** When the thread was last saved; `undefined` for a thread never saved. */
  get savedAt(): number | undefined {
    return this.#lastId === undefined ? undefined : this.#lastAt;
  }

  /** A thread with no checkpoint yet (a new id): nothing to load. */
  static fresh(id: string): Thread {
    return new Thread(id);
  }

  static async load(checkpointer: Checkpointer, id: string): Promise<Thread> {
    const last = await checkpointer.get(id);
    if (!last) return new Thread(id);
    return new Thread(id, {
      messages: last.messages,
      state: last.state,
      meta: last.metadata,
      id: last.id,
      at: last.createdAt,
    });
  }

  /**
   * Write the thread as it stands as the newest checkpoint; `step`, what the model call that
   * made it was (its model, usage and what it was sent), is kept beside it.
   */
  async save(checkpointer: Checkpointer, step?: StepRecord): Promise<void> {
    if (!this.saving) return;
    const seq = this.#seq + 1;
    const metadata: Record<string, JSONValue> = { seq, totals: this.totals as unknown as JSONValue };
    if (step) metadata.step = step as unknown as JSONValue;
    if (this.summary) metadata.summary = { ...this.summary };
    if (this.pending.length > 0) metadata.pendingApprovals = this.pending as unknown as JSONValue;
    if (this.running.length > 0) metadata.running = this.running as unknown as JSONValue;
    if (Object.keys(this.failures).length > 0) metadata.toolFailures = { ...this.failures } as unknown as JSONValue;
    // Ordered by time, then id: both grow, whatever the clock does.
    const createdAt = Math.max(Date.now(), this.#lastAt + 1);
    const id = `step-${String(seq).padStart(8, '0')}`;
    try {
      await checkpointer.put(this.id, {
        id,
        threadId: this.id,
        createdAt,
        messages: this.messages,
        state: this.state as Record<string, JSONValue>,
        metadata,
        ...(this.#lastId ? { parentId: this.#lastId } : {}),
      });
    } catch (error) {
      this.unsaved = true;
      throw error;
    }
    this.#seq = seq;
    this.#lastId = id;
    this.#lastAt = createdAt;
  }
}

/**
 * The agent's default thread memory: each thread's newest checkpoint kept as it is, for the
 * agent's lifetime (no copies, no JSON checks: nothing leaves the page). A `Checkpointer` for
 * threads that survive a reload: `openIndexedDBCheckpointer`. Keeping only the newest, it takes
 * a checkpoint only if it follows that one (its `parentId`): a step written from an older
 * thread would replace a newer one.
 */
export function threadMemory(): Checkpointer {
  const threads = new Map<string, Checkpoint>();
  return {
    put: async (threadId, checkpoint) => {
      const newest = threads.get(threadId);
      if (newest && (newest.id === checkpoint.id || checkpoint.parentId !== newest.id))
        throw new CheckpointConflictError({ threadId, checkpointId: checkpoint.id });
      threads.set(threadId, checkpoint);
    },
    get: async (threadId) => threads.get(threadId),
    list: async (threadId) => {
      const last = threads.get(threadId);
      return last ? [last] : [];
    },
    threads: async () =>
      byRecency([...threads.values()].map((c) => ({ threadId: c.threadId, updatedAt: c.createdAt }))),
    delete: async (threadId) => {
      threads.delete(threadId);
    },
    close: () => threads.clear(),
  };
}

/** The failures a checkpoint kept; an entry that is not one (an older or foreign writer's) is left out. */
function failuresIn(value: unknown): Record<string, ToolFailure> {
  const out: Record<string, ToolFailure> = Object.create(null);
  if (!isPlainObject(value)) return out;
  for (const [id, entry] of Object.entries(value)) {
    const failure = toolFailureFrom(entry);
    if (failure) out[id] = failure;
  }
  return out;
}

function callsIn(value: unknown, threadId: string): ToolCall[] {
  if (value === undefined) return [];
  if (
    !Array.isArray(value) ||
    !value.every(
      (c) => isPlainObject(c) && typeof c.id === 'string' && typeof c.name === 'string' && isPlainObject(c.args),
    )
  )
    throw new CheckpointError({ threadId, reason: 'its agent metadata lists calls that are not { id, name, args }' });
  return value as ToolCall[];
}

/**
 * The results after the last AI message, put in the order of its calls (a call that waited for
 * approval is answered later than its siblings, but the model reads them in call order).
 */
export function inCallOrder(messages: Message[]): Message[] {
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  const ai = messages[at] as AIMessage | undefined;
  const tail = messages.slice(at + 1);
  if (!ai || !tail.every((m) => m.role === 'tool')) return messages;
  const order = new Map([...ai.toolCalls, ...ai.invalidToolCalls].map((c, i) => [c.id, i]));
  const rank = (m: Message) => order.get((m as ToolMessage).toolCallId) ?? order.size;
  return [...messages.slice(0, at + 1), ...tail.sort((a, b) => rank(a) - rank(b))];
}
