import type { CallSoFar } from '../invoker/tool-turn';
import { aiMessage } from '../messages/constructors';
import type { AIMessage, ToolCall, ToolMessage } from '../messages/types';
import { interruptedMessage } from './approvals';

/** What a step that ended early (aborted, or the model's answer broke off) had done. */
export interface EarlyStep {
  /** The model's text so far. */
  text: string;
  /** The calls the model had finished writing, in its order. */
  calls: readonly ToolCall[];
  /** The whole answer, when it had arrived (the step ended while its tools ran). */
  ai?: AIMessage;
  /** What each call handed to the tools came to (`ToolTurn.sofar`). */
  sofar: readonly CallSoFar[];
  /** Calls the agent answered itself (refused by the policy, no tool to run them). */
  answered: readonly ToolMessage[];
}

/**
 * What the thread keeps of a step that ended early, so that no call runs twice: once a call has
 * started, the model's answer so far is kept with the calls that started or were answered, each
 * with its result (a call stopped mid-way is reported as interrupted, not run again). The
 * calls that never started are left out, as if the answer had stopped before them. `undefined`
 * when no call started: nothing ran, and the thread stays as it was.
 *
 * @example
 * const kept = earlyStepMessages({ text: 'Let me look.', calls, sofar: turn.sofar().calls, answered: [] });
 * if (kept) thread.messages.push(kept.ai, ...kept.toolMessages);
 */
export function earlyStepMessages(step: EarlyStep): { ai: AIMessage; toolMessages: ToolMessage[] } | undefined {
  if (!step.sofar.some((c) => c.started)) return undefined;
  const ran = new Map(step.sofar.map((c) => [c.call.id, c]));
  const answered = new Map(step.answered.map((m) => [m.toolCallId, m]));
  const kept = step.calls.filter((c) => ran.get(c.id)?.started || answered.has(c.id));
  const ai: AIMessage = {
    ...(step.ai ?? aiMessage({ content: step.text })),
    toolCalls: kept,
    invalidToolCalls: [],
  };
  const toolMessages = kept.map((c) => ran.get(c.id)?.message ?? answered.get(c.id) ?? interruptedMessage(c));
  return { ai, toolMessages };
}
