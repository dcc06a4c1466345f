/**
 * One step of an agent's loop: a model call, its tool calls started as each one closes (or held
 * for approval, or refused), and the thread saved once the step is whole. What ran is kept if
 * the step breaks off, so that a retry does not run it again.
 */
import type { ToolInvoker } from '../invoker/tool-invoker';
import type { ToolTurn } from '../invoker/tool-turn';
import type { ToolEvent } from '../invoker/types';
import type { AIMessage, ToolCall, ToolMessage } from '../messages/types';
import type { ChatModel, ModelSettings } from '../models/types';
import type { ResolvedOutput } from '../output/output-schema';
import { PartialOutput } from '../output/read-output';
import type { Checkpointer } from '../store/checkpointer';
import { batchesOf } from '../stream/part-batches';
import { deniedMessage, notFound, verdictFor } from './approvals';
import { keepEarlyStep } from './keep-early-step';
import type { Thread } from './thread';
import type { AgentEvent, AgentOptions, AgentStreamOptions } from './types';

/** What a step needs of its agent. */
export interface StepAgent {
  readonly model: ChatModel;
  readonly invoker: ToolInvoker | undefined;
  readonly system: string | undefined;
  readonly settings: ModelSettings;
  readonly checkpointer: Checkpointer;
  readonly approve: AgentOptions['approve'];
  /** Start each call as soon as the model has written it, rather than once the answer is whole. */
  readonly eager: boolean;
}

/** One model call with its tools, started as each call completes; saved when all is done. */
export async function runStep(
  agent: StepAgent,
  thread: Thread,
  options: AgentStreamOptions,
  outer: AbortSignal,
  emit: (event: AgentEvent) => void,
  progress: { steps: number; text: string },
  output: ResolvedOutput | undefined,
): Promise<AIMessage> {
  const specs = agent.invoker ? await agent.invoker.specs() : [];
  // Stopped while the tools' specs loaded (a worker starting): no model call, no tool.
  outer.throwIfAborted();
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer.reason);
  outer.addEventListener('abort', onAbort, { once: true });
  const signal = controller.signal;
  const forward = (event: ToolEvent) => {
    if (event.type !== 'done') emit(event);
  };
  const turn = agent.invoker?.begin({ state: thread.state, context: options.context, signal, onEvent: forward });
  let closing: ReturnType<ToolTurn['close']> | undefined;
  const own: ToolMessage[] = [];
  const held: ToolCall[] = [];
  const later: ToolCall[] = [];
  /** Every call the model finished writing, in its order; and its whole answer once it came. */
  const called: ToolCall[] = [];
  let whole: AIMessage | undefined;
  let toolsDone = false;
  const start = (call: ToolCall) => {
    if (turn) turn.add(call);
    else own.push(notFound(call, emit));
  };
  try {
    const parts = agent.model.stream({
      ...agent.settings,
      messages: thread.messages,
      tools: specs,
      ...(agent.system ? { system: agent.system } : {}),
      ...(output ? { output: output.format } : {}),
      signal,
    });
    const partial = output && new PartialOutput();
    // A chunk's parts come together: the calls that close in it start together (one message per worker).
    for await (const batch of batchesOf(parts)) {
      for (const part of batch) {
        switch (part.type) {
          case 'text-delta':
            progress.text += part.delta;
            emit(part);
            partial?.push(part.delta);
            break;
          case 'reasoning-delta':
            emit(part);
            break;
          case 'tool-input-start':
            emit({ type: 'tool-input-start', toolCallId: part.id, name: part.name, index: part.index });
            break;
          case 'tool-input-delta':
            emit({ type: 'tool-input-delta', toolCallId: part.id, delta: part.delta, partialArgs: part.partialArgs });
            break;
          case 'tool-call': {
            const call = part.toolCall;
            called.push(call);
            emit({ type: 'tool-call', toolCall: call });
            const decided = verdictFor(agent.approve, call, {
              spec: specs.find((spec) => spec.name === call.name),
              messages: thread.messages,
              state: thread.state,
              context: options.context,
            });
            const verdict = decided instanceof Promise ? await decided : decided;
            if ('ask' in verdict) held.push(call);
            else if ('denied' in verdict) own.push(deniedMessage(call, verdict.denied, emit));
            else if (agent.eager) start(call);
            else later.push(call);
            break;
          }
        }
      }
      const object = partial?.take();
      if (object) emit({ type: 'output-delta', partial: object });
    }
    const ai = parts.message();
    whole = ai;
    for (const call of later) start(call);
    for (const bad of ai.invalidToolCalls) {
      if (turn) turn.addInvalid(bad);
      else own.push(notFound({ id: bad.id, name: bad.name ?? '', args: {} }, emit));
    }
    closing = turn?.close();
    const result = closing ? await closing : { messages: [], state: thread.state };
    toolsDone = true;
    const byId = new Map([...result.messages, ...own].map((m) => [m.toolCallId, m]));
    const toolMessages = [...ai.toolCalls, ...ai.invalidToolCalls]
      .map((c) => byId.get(c.id))
      .filter((m): m is ToolMessage => m !== undefined);
    thread.messages = [...thread.messages, ai, ...toolMessages];
    thread.state = result.state;
    thread.pending = held;
    await thread.save(agent.checkpointer);
    progress.text = ai.content;
    const finished: AgentEvent = { type: 'step-finish', step: progress.steps, message: ai, toolMessages };
    if (ai.usage) finished.usage = ai.usage;
    emit(finished);
    return ai;
  } catch (error) {
    // The answer broke off or was stopped: the calls it started are cancelled with it.
    controller.abort(error);
    if (turn && !closing) await turn.close().catch(() => {});
    // What ran is kept (a retry must not run it again), unless the tools themselves failed the turn.
    if (turn && !toolsDone && (!closing || outer.aborted))
      await keepEarlyStep(thread, agent.checkpointer, turn, {
        text: progress.text,
        calls: whole?.toolCalls ?? called,
        ai: whole,
        answered: own,
      });
    throw error;
  } finally {
    outer.removeEventListener('abort', onAbort);
  }
}
