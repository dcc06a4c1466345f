/**
 * A chat's state and the agent's events applied to it, with no agent and no timers (tested on
 * its own). Snapshots are immutable and share what did not change (draft-messages.ts says how).
 */
import type { AgentEvent } from '../agent/types';
import { addStep, emptyTotals, type UsageTotals } from '../agent/usage';
import { type ToolFailure, toolFailure } from '../errors/tool-failure';
import type { Content, ToolCall, Usage } from '../messages/types';
import { type Draft, DraftMessages } from './draft-messages';
import { copyLive } from './live-copy';
import { PROGRESS_LIMITS, ProgressHistory, type ProgressLimits } from './progress-history';
import { RunAnswer } from './run-answer';
import type { ChatSnapshot, ChatStatus, ChatThread, UIToolPart, UIToolState } from './types';
import { failed, resultOf, toUIMessages, userParts } from './ui-messages';

/** The output events of structured output (`output-delta`, `finish` with `output`), read by shape. */
type OutputEvent = { type: 'output-delta'; partial: unknown } | { type: 'finish'; output?: unknown };

export class ChatState {
  #threadId: string;
  readonly #drafts = new DraftMessages(() => this.#touch());
  readonly #progress: ProgressHistory;
  #pending: readonly ToolCall[] = NONE;
  #status: ChatStatus = 'ready';
  #error: Error | undefined;
  #threads: readonly ChatThread[] = [];
  /** The latest run's usage and the thread's, replaced (never changed in place) as steps finish. */
  #usage: { run: UsageTotals; thread: UsageTotals } = { run: emptyTotals(), thread: emptyTotals() };
  #snapshot: ChatSnapshot;
  #dirty = false;
  #owed = false;
  readonly #changed: () => void;
  /** Live arguments and structured output (the agent keeps extending them): copied per snapshot. */
  #liveInputs = new Map<string, Record<string, unknown>>();
  #liveOutput: { value: unknown } | undefined;
  #ids = 0;
  /** The answer of the run being applied. */
  readonly #answer = new RunAnswer(this.#drafts, () => this.#newId());

  /**
   * `changed` is called when the state changes after a snapshot was taken (once until the next);
   * `limits` bound what a tool part keeps of its progress.
   */
  constructor(threadId: string, changed: () => void, limits: ProgressLimits = PROGRESS_LIMITS) {
    this.#threadId = threadId;
    this.#changed = changed;
    this.#progress = new ProgressHistory(limits);
    this.#snapshot = this.#make();
  }

  get threadId(): string {
    return this.#threadId;
  }

  get status(): ChatStatus {
    return this.#status;
  }

  get pending(): readonly ToolCall[] {
    return this.#pending;
  }

  get threads(): readonly ChatThread[] {
    return this.#threads;
  }

  /** The current state: the same object as last time when nothing changed. */
  snapshot(): ChatSnapshot {
    if (!this.#dirty) return this.#snapshot;
    this.#settleLive();
    this.#snapshot = this.#make();
    this.#dirty = false;
    return this.#snapshot;
  }

  /** Show a saved thread (or an empty one): everything else is dropped. */
  load(
    threadId: string,
    saved: {
      messages: Parameters<typeof toUIMessages>[0];
      pending: readonly ToolCall[];
      totals?: UsageTotals;
      toolFailures?: Readonly<Record<string, ToolFailure>>;
    },
  ): void {
    this.#update(() => {
      this.#threadId = threadId;
      this.#usage = { run: emptyTotals(), thread: saved.totals ?? emptyTotals() };
      const messages = toUIMessages(saved.messages, saved.pending, () => this.#newId(), saved.toolFailures);
      // Made just now, seen by no one: a script's console lines are cut down in place.
      for (const message of messages)
        for (const part of message.parts) if (part.type === 'tool') this.#progress.fit(part as Draft<UIToolPart>);
      this.#drafts.replace(messages);
      this.#progress.clear();
      this.#pending = sameCalls(this.#pending, saved.pending);
      this.#liveInputs.clear();
      this.#liveOutput = undefined;
      this.#answer.end();
      this.#setStatus(this.#pending.length > 0 ? 'awaiting-approval' : 'ready', undefined);
    });
  }

  setStatus(status: ChatStatus, error?: Error): void {
    this.#update(() => {
      this.#setStatus(status, error);
    });
  }

  setThreads(threads: readonly ChatThread[]): void {
    this.#update(() => {
      this.#threads = threads;
      this.#touch();
    });
  }

  /** The person's message, shown at once. */
  user(content: Content): void {
    this.#update(() => {
      const messages = this.#drafts.ownMessages();
      messages.push(this.#drafts.new({ id: this.#newId(), role: 'user', parts: userParts(content) }));
      this.#pending = sameCalls(this.#pending, NONE);
      this.#answer.end();
    });
  }

  /**
   * A run starts. A new message's run writes a new answer; a run that carries on (decisions on
   * approvals, a retry) adds to the last answer.
   */
  begin(carriesOn: boolean): void {
    this.#update(() => {
      this.#answer.begin(carriesOn);
      if (!carriesOn) {
        this.#usage = { ...this.#usage, run: emptyTotals() };
        this.#touch();
      }
      this.#setStatus('streaming', undefined);
    });
  }

  /** Calls decided on: no longer waiting, about to run (or be refused). */
  decided(ids: readonly string[]): void {
    this.#update(() => {
      if (ids.length === 0) return;
      this.#pending = this.#pending.filter((c) => !ids.includes(c.id));
      this.#touch();
      for (const id of ids) this.#toolState(id, 'input-available');
    });
  }

  /** Decisions that were never sent (the run before them stopped): the calls wait again. */
  undecided(calls: readonly ToolCall[]): void {
    this.#update(() => {
      this.#pending = [...this.#pending, ...calls.filter((c) => !this.#pending.some((p) => p.id === c.id))];
      this.#touch();
      for (const call of calls) this.#toolState(call.id, 'approval-requested');
    });
  }

  /**
   * Drop what the last run showed beyond its last saved step (a retry does it again): its
   * partial text, its unfinished calls, and its answer when nothing of it was saved.
   */
  rollback(): void {
    this.#update(() => {
      if (!this.#answer.rollback()) return;
      this.#liveInputs.clear();
      this.#liveOutput = undefined;
    });
  }

  /** One event of a run. */
  apply(event: AgentEvent): void {
    this.#update(() => {
      const output = event as unknown as OutputEvent;
      if (output.type === 'output-delta') {
        this.#liveOutput = { value: output.partial };
        this.#answer.output(() => {});
        return;
      }
      switch (event.type) {
        case 'text-delta':
          if (!this.#answer.outputStep) this.#answer.text('text', event.delta);
          break;
        case 'reasoning-delta':
          this.#answer.text('reasoning', event.delta);
          break;
        case 'tool-input-start':
          if (!this.#drafts.hasCall(event.toolCallId))
            this.#drafts.addPart(this.#answer.at(), {
              type: 'tool',
              toolCallId: event.toolCallId,
              toolName: event.name,
              state: 'input-streaming',
              progress: [],
            });
          break;
        case 'tool-input-delta':
          if (this.#drafts.hasCall(event.toolCallId)) {
            this.#liveInputs.set(event.toolCallId, event.partialArgs);
            this.#touch();
          }
          break;
        case 'tool-call':
          this.#liveInputs.delete(event.toolCall.id);
          this.#toolOrNew(event.toolCall.id, event.toolCall.name, undefined, (part) => {
            part.state = 'input-available';
            part.input = event.toolCall.args;
            delete part.partialInput;
          });
          break;
        case 'tool-started':
          this.#toolOrNew(event.toolCallId, event.name, event.parentToolCallId, (part) => {
            part.state = 'running';
            part.input = event.args;
            part.startedAt = Date.now();
          });
          break;
        case 'tool-output-delta':
          this.#drafts.tool(event.toolCallId, (part) => {
            part.progress = this.#drafts.own(part.progress as unknown[]);
            this.#progress.push(part, event.delta);
          });
          break;
        case 'tool-rerun':
          this.#progress.forget(event.toolCallId);
          this.#drafts.tool(event.toolCallId, (part) => {
            part.progress = [];
            delete part.progressDropped;
            part.rerun = event.reason;
          });
          break;
        case 'tool-finished':
          this.#progress.forget(event.toolCallId);
          this.#toolOrNew(event.toolCallId, event.message.name, event.parentToolCallId, (part) => {
            const { progress: _p, children: _c, ...result } = resultOf(event.message);
            Object.assign(part, result, { endedAt: Date.now() });
          });
          break;
        case 'tool-error':
          this.#progress.forget(event.toolCallId);
          this.#toolOrNew(event.toolCallId, event.message?.name ?? '', event.parentToolCallId, (part) => {
            Object.assign(part, failed(toolFailure(event.error)), { endedAt: Date.now() });
          });
          break;
        case 'approval-request':
          this.#toolOrNew(event.toolCall.id, event.toolCall.name, undefined, (part) => {
            part.state = 'approval-requested';
            part.input = event.toolCall.args;
          });
          if (!this.#pending.some((c) => c.id === event.toolCall.id))
            this.#pending = [...this.#pending, event.toolCall];
          this.#touch();
          break;
        case 'step-finish': {
          this.#settleLive();
          this.#answer.stepFinished();
          const run = { ...this.#usage.run };
          const thread = { ...this.#usage.thread };
          addStep(run, event.usage, event.cost);
          addStep(thread, event.usage, event.cost);
          this.#usage = { run, thread };
          this.#touch();
          break;
        }
        case 'finish': {
          if (output.output !== undefined) {
            const value = output.output;
            this.#liveOutput = undefined;
            this.#answer.output((part) => {
              part.value = value;
              part.partial = false;
            });
          }
          // The run's and the thread's own counts win: the run's holds what no step said (its
          // summarizer's calls), the thread's a step this chat did not see (another tab's).
          this.#usage = { run: runTotals(this.#usage.run, event), thread: event.totals };
          this.#touch();
          this.#pending = sameCalls(this.#pending, event.pendingApprovals ?? NONE);
          for (const call of this.#pending) this.#toolState(call.id, 'approval-requested');
          this.#answer.stopped(event.stopReason);
          this.#setStatus(this.#pending.length > 0 ? 'awaiting-approval' : 'ready', undefined);
          break;
        }
        case 'error':
          this.#setStatus('error', event.error);
          break;
      }
    });
  }

  /** The live arguments and output as they stand now, copied into their parts. */
  #settleLive(): void {
    for (const [id, args] of this.#liveInputs)
      this.#drafts.tool(id, (part) => {
        if (part.state === 'input-streaming') part.partialInput = copyLive(args);
      });
    this.#liveInputs.clear();
    if (this.#liveOutput) {
      const value = copyLive(this.#liveOutput.value);
      this.#liveOutput = undefined;
      this.#answer.output((part) => {
        if (part.partial) part.value = value;
      });
    }
  }

  #make(): ChatSnapshot {
    return {
      threadId: this.#threadId,
      messages: this.#drafts.seal(),
      status: this.#status,
      error: this.#error,
      pendingApprovals: this.#pending,
      threads: this.#threads,
      usage: this.#usage,
    };
  }

  #touch(): void {
    if (this.#dirty) return;
    this.#dirty = true;
    this.#owed = true;
  }

  /**
   * Said once a public method has made its change whole: a subscriber may read a snapshot
   * from inside `changed` (a synchronous schedule), and must never see, or freeze, half of one.
   */
  #update(change: () => void): void {
    try {
      change();
    } finally {
      this.#settle();
    }
  }

  #settle(): void {
    if (!this.#owed) return;
    this.#owed = false;
    this.#changed();
  }

  #setStatus(status: ChatStatus, error: Error | undefined): void {
    this.#status = status;
    this.#error = error;
    this.#touch();
  }

  #newId(): string {
    return `m${++this.#ids}`;
  }

  #toolState(id: string, state: UIToolState): void {
    this.#drafts.tool(id, (part) => {
      part.state = state;
    });
  }

  /** Change a call's part, made first (in the run's answer, or under its caller) if the chat has not seen it. */
  #toolOrNew(id: string, name: string, parent: string | undefined, change: (part: Draft<UIToolPart>) => void): void {
    this.#drafts.toolOrNew(id, name, parent, () => this.#answer.at(), change);
  }
}

/** A run's usage as its `finish` event gives it, over what its steps said. */
function runTotals(
  steps: UsageTotals,
  finish: { usage: Usage; cost?: number | undefined; steps: number },
): UsageTotals {
  const { usage } = finish;
  const run: UsageTotals = {
    ...steps,
    inputTokens: usage.inputTokens ?? steps.inputTokens,
    outputTokens: usage.outputTokens ?? steps.outputTokens,
    cachedInputTokens: usage.cachedInputTokens ?? steps.cachedInputTokens,
    cacheWriteTokens: usage.cacheWriteTokens ?? steps.cacheWriteTokens,
    reasoningTokens: usage.reasoningTokens ?? steps.reasoningTokens,
    steps: finish.steps,
  };
  if (finish.cost !== undefined) run.cost = finish.cost;
  return run;
}

/** No calls waiting: one array, so that a view memoized on `pendingApprovals` sees no change. */
const NONE: readonly ToolCall[] = Object.freeze([]);

/** `next`, or `current` when it holds the same calls in the same order (the snapshot's field stays the same object). */
function sameCalls(current: readonly ToolCall[], next: readonly ToolCall[]): readonly ToolCall[] {
  return next.length === current.length && next.every((call, i) => call.id === current[i]?.id) ? current : next;
}
