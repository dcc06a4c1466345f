import { describeValue } from '../errors/moat-error';
import { ToolDeniedError } from '../errors/tool-denied-error';
import { ToolNotFoundError } from '../errors/tool-not-found-error';
import { errorMessage } from '../invoker/error-policy';
import type { ToolInvoker } from '../invoker/tool-invoker';
import type { ToolTurn } from '../invoker/tool-turn';
import { isPlainObject } from '../json/json-value';
import { toolMessage } from '../messages/constructors';
import type { ToolCall, ToolMessage } from '../messages/types';
import type { Checkpointer } from '../store/checkpointer';
import { inCallOrder, type Thread } from './thread';
import type { AgentEvent, AgentOptions, ApprovalContext } from './types';

/** What happens to a call: it runs, waits for a person, or is refused with a reason. */
export type Verdict = { run: true } | { ask: true } | { denied: string | undefined };

/**
 * The agent's policy for one call. Without an `approve` function the spec decides (ask when it
 * says `needsApproval`), synchronously: no await per call on the streaming path.
 */
export function verdictFor(
  approve: AgentOptions['approve'],
  call: ToolCall,
  ctx: ApprovalContext,
): Verdict | Promise<Verdict> {
  if (!approve) return ctx.spec?.needsApproval ? { ask: true } : { run: true };
  return Promise.resolve(approve(call, ctx)).then((answer) => {
    if (answer === true) return { run: true };
    if (answer === 'ask') return { ask: true };
    if (answer === false) return { denied: undefined };
    if (isPlainObject(answer) && answer.approved === false)
      return { denied: typeof answer.reason === 'string' ? answer.reason : undefined };
    throw new TypeError(
      `The agent's approve() must answer true, false, 'ask' or { approved: false, reason }, got ${describeValue(answer)} for call ${call.id}`,
    );
  });
}

/** The error message a refused call becomes (the model reads the reason), with its event. */
export function deniedMessage(
  call: ToolCall,
  reason: string | undefined,
  emit: (event: AgentEvent) => void,
): ToolMessage {
  return failedMessage(call, new ToolDeniedError({ toolName: call.name, toolCallId: call.id, reason }), emit);
}

/** A call that did not run, as the error result the model reads, with its `tool-error` event. */
export function failedMessage(call: ToolCall, error: Error, emit: (event: AgentEvent) => void): ToolMessage {
  const message = errorMessage(call.id, call.name, error);
  emit({ type: 'tool-error', toolCallId: call.id, error, message });
  return message;
}

/**
 * A call no tool answers to (an agent without tools, or a tool the step did not offer), as the
 * error the model reads, naming the tools it may call.
 */
export function notFound(call: ToolCall, emit: (event: AgentEvent) => void, available: string[] = []): ToolMessage {
  return failedMessage(call, new ToolNotFoundError({ toolName: call.name, toolCallId: call.id, available }), emit);
}

/** The message for an approved call that was running when the page went away: it is not run again. */
export function interruptedMessage(call: ToolCall): ToolMessage {
  return toolMessage({
    toolCallId: call.id,
    name: call.name,
    content: `Error: the call to ${call.name} was interrupted while it ran (the page closed or the run stopped). It was not run again; its effects, if any, are unknown.`,
    status: 'error',
  });
}

/** What resuming decided calls needs of the agent. */
export interface ResumeHost {
  checkpointer: Checkpointer;
  invoker: ToolInvoker | undefined;
  context: unknown;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
}

/**
 * Run (or refuse) the calls a person decided on, saving before and after: none runs twice. The
 * agent holds the thread meanwhile, so a second resume of the same calls finds them decided.
 */
export async function resumeDecided(
  thread: Thread,
  approvals: Map<string, { approved: boolean; reason?: string }>,
  host: ResumeHost,
): Promise<void> {
  const { checkpointer, invoker, emit } = host;
  const decided = thread.pending.filter((c) => approvals.has(c.id));
  if (decided.length === 0) {
    const waiting = thread.pending.map((c) => c.id);
    throw new TypeError(
      `No call of thread '${thread.id}' waits for a decision under ${[...approvals.keys()].map((id) => `'${id}'`).join(', ')}: ${
        waiting.length > 0
          ? `waiting are ${waiting.map((id) => `'${id}'`).join(', ')}`
          : 'none is waiting (already decided?)'
      }`,
    );
  }
  const approved = decided.filter((c) => approvals.get(c.id)?.approved);
  thread.pending = thread.pending.filter((c) => !decided.includes(c));
  thread.running = approved;
  await thread.save(checkpointer);
  const own: ToolMessage[] = [];
  const turn = invoker?.begin({
    state: thread.state,
    context: host.context,
    signal: host.signal,
    onEvent: (event) => {
      if (event.type !== 'done') emit(event);
    },
  });
  for (const call of decided) {
    const decision = approvals.get(call.id);
    if (!decision?.approved) own.push(deniedMessage(call, decision?.reason, emit));
    else if (turn) turn.add(call);
    else own.push(notFound(call, emit));
  }
  let result: { messages: ToolMessage[]; state: Record<string, unknown> };
  try {
    result = turn ? await turn.close() : { messages: [], state: thread.state };
  } catch (error) {
    // Stopped: what finished (and the refusals) is kept; the calls cut off stay `running`, so
    // the next run reports them as interrupted rather than running them again.
    if (turn && host.signal.aborted) {
      let sofar: ReturnType<ToolTurn['sofar']>;
      try {
        sofar = turn.sofar();
      } catch (conflict) {
        thread.unsaved = true;
        throw conflict;
      }
      const finished = sofar.calls.flatMap((c) => (c.message ? [c.message] : []));
      const done = new Set(finished.map((m) => m.toolCallId));
      thread.messages = inCallOrder([...thread.messages, ...own, ...finished]);
      thread.state = sofar.state;
      thread.running = thread.running.filter((c) => !done.has(c.id));
      await thread.save(checkpointer);
    }
    throw error;
  }
  const byId = new Map([...result.messages, ...own].map((m) => [m.toolCallId, m]));
  thread.messages = inCallOrder([...thread.messages, ...decided.map((c) => byId.get(c.id) as ToolMessage)]);
  thread.state = result.state;
  thread.running = [];
  await thread.save(checkpointer);
}
