import { newThreadId, parseInput } from '../agent/input';
import type { AgentInput, ApprovalDecision } from '../agent/types';
import { ChatBusyError } from '../errors/chat-busy-error';
import { describeValue } from '../errors/moat-error';
import { ThreadNotFoundError } from '../errors/thread-not-found-error';
import { userMessage } from '../messages/constructors';
import { type ContentPartInput, isBlob, toContent } from '../messages/to-content-part';
import type { Content, ContentPart, ToolCall } from '../messages/types';
import { ChatState } from './chat-state';
import { DevWarnings } from './dev-warnings';
import { Notifier } from './notifier';
import { progressLimits } from './progress-history';
import { ThreadList } from './thread-list';
import type { Attachment, ChatAgent, ChatOptions, ChatSnapshot, SendOptions } from './types';

/**
 * A chat over an agent, for any UI: one immutable snapshot of the conversation (messages with
 * their text, reasoning, structured output and tool calls, the run's status, the calls waiting
 * for approval, the saved threads), a new object only when something changed, and the actions
 * (`send`, `stop`, `retry`, `approve`, threads). React reads it with `useSyncExternalStore`; Vue,
 * Svelte, lit and plain DOM code subscribe the same way.
 *
 * @example
 * const chat = createChat({ agent, threadId });
 * const off = chat.subscribe(() => render(chat.getSnapshot()));
 * await chat.send('What is 3 * 12?');
 */
export function createChat(options: ChatOptions): Chat {
  return new Chat(options);
}

/** What `retry()` does again: the last run that failed or was stopped, or a thread operation that failed. */
type Again = () => Promise<void>;

interface Run {
  controller: AbortController;
  done: Promise<void>;
}

export class Chat {
  readonly #agent: ChatAgent;
  readonly #state: ChatState;
  readonly #notifier: Notifier;
  #run: Run | undefined;
  /** The thread being opened (and the run before it winding down): actions wait for it. */
  #opening: Promise<void> = Promise.resolve();
  /** Bumped when another thread is shown: a run of the one before no longer writes here. */
  #epoch = 0;
  /** Decisions made while a run was under way, sent when it ends. */
  readonly #decisions = new Map<string, { call: ToolCall; decision: ApprovalDecision }>();
  #again: Again | undefined;
  readonly #threadList: ThreadList;
  /** A message's attachments are being read (`send`): the chat is busy. */
  #reading = false;
  readonly #warnings: DevWarnings;
  /**
   * The ids of the new threads this chat started: one left before a message was sent was never
   * saved, and opening it again finds it empty, which is no loss.
   */
  readonly #madeHere = new Set<string>();

  constructor(options: ChatOptions) {
    if (typeof options !== 'object' || options === null)
      throw new TypeError(`createChat takes an options object, got ${describeValue(options)}`);
    const { agent, threadId, schedule, warnings } = options;
    for (const method of ['stream', 'thread', 'threads', 'deleteThread'] as const)
      if (typeof agent?.[method] !== 'function')
        throw new TypeError(`Expected \`agent\` to be an agent (createAgent(…)), got ${describeValue(agent)}`);
    if (threadId !== undefined) checkThreadId(threadId);
    if (schedule !== undefined && typeof schedule !== 'function')
      throw new TypeError(`Expected \`schedule\` to be a function, got ${describeValue(schedule)}`);
    if (warnings !== undefined && warnings !== 'console' && warnings !== 'off')
      throw new TypeError(`Expected \`warnings\` to be 'console' or 'off', got ${describeValue(warnings)}`);
    const limits = progressLimits(options);
    this.#warnings = new DevWarnings(warnings);
    this.#agent = agent;
    this.#threadList = new ThreadList(agent);
    this.#state = new ChatState(threadId ?? this.#made(newThreadId()), () => this.#notifier.changed(), limits);
    this.#notifier = new Notifier(schedule, () => this.#state.snapshot());
    if (threadId !== undefined) void this.openThread(threadId);
    void this.refreshThreads();
  }

  /** The chat as it stands: the same object until something changes. */
  getSnapshot = (): ChatSnapshot => this.#state.snapshot();

  /** Hear of changes (at most once per animation frame by default); returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    if (typeof listener !== 'function')
      throw new TypeError(`Expected a listener function, got ${describeValue(listener)}`);
    return this.#notifier.subscribe(listener);
  };

  /**
   * Send the person's message and run the agent on it; resolves when the run ends. A failure
   * does not reject: it is the snapshot's `error` (status `'error'`), with what streamed kept.
   * Calls waiting for approval are refused by a new message. Rejects with `ChatBusyError` while
   * a run is under way.
   *
   * `attachments`: `File`s and `Blob`s (an image goes as an image, anything else as a file; a
   * text file as its text) or parts, read before anything is shown; one that cannot be read
   * (`UnknownMediaTypeError`, say) rejects the send and changes nothing.
   *
   * @example await chat.send('What is this?', { attachments: [input.files[0]] })
   */
  async send(text: string, options: SendOptions = {}): Promise<void> {
    if (typeof text !== 'string') throw new TypeError(`Expected a message to send, got ${describeValue(text)}`);
    if (typeof options !== 'object' || options === null)
      throw new TypeError(`Expected send's options to be an object, got ${describeValue(options)}`);
    const { attachments = [] } = options;
    if (!Array.isArray(attachments))
      throw new TypeError(`Expected \`attachments\` to be a list, got ${describeValue(attachments)}`);
    if (text.trim() === '' && attachments.length === 0)
      throw new TypeError(`Expected a message or an attachment to send, got ${describeValue(text)}`);
    if (attachments.length === 0) {
      await this.#opening;
      this.#idle('send a message');
      return this.#send(text);
    }
    // The files are read first; meanwhile the chat is busy (a second message waits its turn),
    // and a message read for one thread is not sent to another.
    this.#idle('send a message');
    const epoch = this.#epoch;
    this.#reading = true;
    let content: Content;
    try {
      content = await withAttachments(text, attachments);
    } finally {
      this.#reading = false;
    }
    await this.#opening;
    if (epoch !== this.#epoch)
      throw new DOMException('Another thread was opened while the attachments were read: not sent', 'AbortError');
    this.#idle('send a message');
    return this.#send(content);
  }

  #send(content: Content): Promise<void> {
    this.#decisions.clear();
    this.#again = undefined;
    this.#state.user(content);
    return this.#start(typeof content === 'string' ? content : userMessage(content), false);
  }

  /** Stop the run under way (the thread keeps its last complete step; `retry()` carries on). */
  stop(): void {
    this.#run?.controller.abort(new DOMException('The chat was stopped', 'AbortError'));
  }

  /**
   * Try again what failed or was stopped last: a run carries on from its last saved step (its
   * message is sent again when none was saved, decisions again when their calls still wait);
   * what it had shown beyond that step is dropped first. Does nothing when nothing failed.
   */
  async retry(): Promise<void> {
    await this.#opening;
    this.#idle('retry');
    const again = this.#again;
    this.#again = undefined;
    if (again) await again();
  }

  /**
   * Decide on a call waiting for approval: `true`, or `{ approved: false, reason }` (the model
   * is told the reason). The call runs (or is refused) at once, or when the run under way ends.
   */
  async approve(toolCallId: string, decision: ApprovalDecision): Promise<void> {
    parseInput({ approvals: { [toolCallId]: decision } });
    await this.#opening;
    const call = this.#state.pending.find((c) => c.id === toolCallId);
    if (!call) {
      const waiting = this.#state.pending.map((c) => `'${c.id}'`);
      throw new TypeError(
        `No call waits for approval under ${describeValue(toolCallId)}: ${waiting.length > 0 ? `waiting are ${waiting.join(', ')}` : 'none is waiting'}`,
      );
    }
    this.#state.decided([toolCallId]);
    this.#decisions.set(toolCallId, { call, decision });
    this.#again = undefined;
    return this.#sendDecisions();
  }

  /**
   * Show a saved thread (a run under way is stopped first). An unknown id is an empty thread by
   * that id: a new conversation, named ahead. When the agent has no checkpointer, whose threads
   * a reload forgets, it is also the snapshot's `error` (`ThreadNotFoundError`, saying so), as a
   * thread id kept across a reload finds nothing there.
   */
  async openThread(threadId: string): Promise<void> {
    checkThreadId(threadId);
    const epoch = this.#leave();
    const before = this.#opening;
    const opening = (async () => {
      await before;
      const saved = await this.#agent.thread(threadId);
      if (epoch !== this.#epoch) return;
      if (!saved && this.#agent.persistent === false && !this.#madeHere.has(threadId)) {
        const lost = new ThreadNotFoundError({ threadId });
        this.#state.load(threadId, EMPTY);
        this.#state.setStatus('error', lost);
        this.#warnings.warn(`lost:${threadId}`, lost);
        return;
      }
      this.#state.load(
        threadId,
        saved
          ? {
              messages: saved.messages,
              pending: saved.pendingApprovals,
              totals: saved.totals,
              toolFailures: saved.toolFailures,
            }
          : EMPTY,
      );
    })();
    this.#opening = opening.catch(() => {});
    try {
      await opening;
    } catch (error) {
      if (epoch === this.#epoch) this.#fail(error, () => this.openThread(threadId));
    }
  }

  #made(threadId: string): string {
    this.#madeHere.add(threadId);
    return threadId;
  }

  /** Start a new, empty thread (a run under way is stopped first). */
  newThread(): Promise<void> {
    this.#leave();
    this.#state.load(this.#made(newThreadId()), EMPTY);
    return this.#opening;
  }

  /** Forget a saved thread; the open one is replaced by a new thread. */
  async deleteThread(threadId: string): Promise<void> {
    checkThreadId(threadId);
    if (threadId === this.#state.threadId) await this.newThread();
    try {
      await this.#agent.deleteThread(threadId);
    } catch (error) {
      this.#fail(error, () => this.deleteThread(threadId));
      return;
    }
    this.#threadList.forget(threadId);
    await this.refreshThreads();
  }

  /** Read the list of saved threads again (the chat does after each run and each delete). */
  async refreshThreads(): Promise<void> {
    try {
      await this.#listThreads();
    } catch (error) {
      this.#fail(error, () => this.refreshThreads());
    }
  }

  #idle(action: string): void {
    const threadId = this.#state.threadId;
    if (this.#run) throw new ChatBusyError({ threadId, action });
    if (this.#reading)
      throw new ChatBusyError({
        threadId,
        action,
        message: `Cannot ${action}: a message's attachments are being read in thread '${threadId}'. Wait for its send() to settle`,
      });
  }

  #fail(error: unknown, again: Again): void {
    this.#state.setStatus('error', error instanceof Error ? error : new Error(String(error)));
    this.#again = again;
  }

  /** Leave the thread shown: its run is stopped, and what comes next waits for it to wind down. */
  #leave(): number {
    const epoch = ++this.#epoch;
    const run = this.#run;
    this.stop();
    this.#decisions.clear();
    this.#again = undefined;
    if (run) this.#opening = run.done;
    return epoch;
  }

  #start(input: AgentInput, carriesOn: boolean): Promise<void> {
    const controller = new AbortController();
    this.#state.begin(carriesOn);
    const run: Run = { controller, done: Promise.resolve() };
    run.done = this.#drive(input, run);
    this.#run = run;
    return run.done;
  }

  async #drive(input: AgentInput, run: Run): Promise<void> {
    const epoch = this.#epoch;
    const threadId = this.#state.threadId;
    const signal = run.controller.signal;
    let saved = false;
    let ended: 'finished' | 'stopped' | 'failed' | undefined;
    // Let #start record the run before its first event is applied.
    await undefined;
    try {
      for await (const event of this.#agent.stream(input, { threadId, signal })) {
        if (epoch !== this.#epoch) break;
        this.#warnings.event(event);
        if (event.type === 'step-finish') saved = true;
        if (event.type === 'finish') ended = event.stopReason === 'aborted' ? 'stopped' : 'finished';
        if (event.type === 'error') {
          // An abort that surfaced as an error is a stop.
          ended = signal.aborted ? 'stopped' : 'failed';
          if (ended === 'stopped')
            this.#state.setStatus(this.#state.pending.length > 0 ? 'awaiting-approval' : 'ready');
          else this.#state.apply(event);
          continue;
        }
        this.#state.apply(event);
      }
      if (!ended && epoch === this.#epoch) {
        ended = 'failed';
        this.#state.setStatus('error', new Error('The agent stopped without finishing'));
      }
    } catch (error) {
      ended = 'failed';
      if (epoch === this.#epoch)
        this.#state.setStatus('error', error instanceof Error ? error : new Error(String(error)));
    } finally {
      if (this.#run === run) this.#run = undefined;
    }
    if (epoch !== this.#epoch) return;
    // Calls decided on while this run went on are not waiting any more, whatever it ended with.
    if (ended === 'finished') this.#state.decided([...this.#decisions.keys()]);
    else {
      this.#again = () => this.#carryOn(input, saved, threadId);
      // Decisions queued behind this run were never sent: their calls wait again.
      this.#state.undecided([...this.#decisions.values()].map((d) => d.call));
      this.#decisions.clear();
    }
    // The list of threads shows this one as saved (a failure to read it leaves the list as it was).
    await this.#listThreads().catch(() => {});
  }

  /** Retry a run: from its last saved step, or its input again when nothing of it was saved. */
  async #carryOn(input: AgentInput, saved: boolean, threadId: string): Promise<void> {
    this.#state.rollback();
    let next: AgentInput = saved ? [] : input;
    if (typeof input === 'object' && 'approvals' in input) {
      let thread: Awaited<ReturnType<ChatAgent['thread']>>;
      try {
        thread = await this.#agent.thread(threadId);
      } catch (error) {
        this.#fail(error, () => this.#carryOn(input, saved, threadId));
        return;
      }
      const waiting = Object.entries(input.approvals).filter(([id]) =>
        thread?.pendingApprovals.some((c) => c.id === id),
      );
      next = waiting.length > 0 ? { approvals: Object.fromEntries(waiting) } : [];
    }
    this.#idle('retry');
    return this.#start(next, true);
  }

  async #sendDecisions(): Promise<void> {
    while (this.#run) await this.#run.done;
    if (this.#decisions.size === 0) return;
    const approvals = Object.fromEntries([...this.#decisions].map(([id, d]) => [id, d.decision]));
    this.#decisions.clear();
    return this.#start({ approvals }, true);
  }

  async #listThreads(): Promise<void> {
    const known = this.#state.threads;
    const threads = await this.#threadList.read(known);
    if (threads !== known) this.#state.setThreads(threads);
  }
}

const EMPTY = { messages: [], pending: [] };

/**
 * A message's parts: the text, then each attachment read. A `File` or `Blob` is a file part
 * unless its type, or its first bytes when it has none, say it is an image.
 */
async function withAttachments(text: string, attachments: readonly Attachment[]): Promise<ContentPart[]> {
  const inputs: ContentPartInput[] = attachments.map((a) => (isBlob(a) ? { type: 'file', data: a } : a));
  const parts = await toContent([...(text.trim() === '' ? [] : [{ type: 'text' as const, text }]), ...inputs]);
  return (parts as ContentPart[]).map((part) =>
    part.type === 'file' && part.mediaType.startsWith('image/') ? { ...part, type: 'image' } : part,
  );
}

function checkThreadId(threadId: unknown): void {
  if (typeof threadId !== 'string' || threadId === '')
    throw new TypeError(`Expected a thread id, got ${describeValue(threadId)}`);
}
