import type { ToolTurn } from '../invoker/tool-turn';
import type { AIMessage, ToolCall, ToolMessage } from '../messages/types';
import type { Checkpointer } from '../store/checkpointer';
import { earlyStepMessages } from './early-step-messages';
import type { Thread } from './thread';

/**
 * Save what a step that ended early had done, once its turn's calls have settled: the answer so
 * far with the calls that started and their results (see `earlyStepMessages`). Nothing is saved
 * when no call started. When this fails, the thread is marked `unsaved` and the error thrown.
 */
export async function keepEarlyStep(
  thread: Thread,
  checkpointer: Checkpointer,
  turn: ToolTurn,
  step: { text: string; calls: readonly ToolCall[]; ai: AIMessage | undefined; answered: readonly ToolMessage[] },
): Promise<void> {
  let sofar: ReturnType<ToolTurn['sofar']>;
  try {
    sofar = turn.sofar();
  } catch (conflict) {
    thread.unsaved = true; // the calls' state updates conflict (StateMergeError)
    throw conflict;
  }
  const { ai, ...early } = step;
  const kept = earlyStepMessages({ ...early, ...(ai ? { ai } : {}), sofar: sofar.calls });
  if (!kept) return;
  thread.messages = [...thread.messages, kept.ai, ...kept.toolMessages];
  thread.state = sofar.state;
  await thread.save(checkpointer);
}
