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
import type { StreamPart } from '../stream/stream-part';
import { WorkSlice } from '../stream/work-slice';
import { deniedMessage, notFound, verdictFor } from './approvals';
import type { FittedContext } from './fit-context';
import { keepEarlyStep } from './keep-early-step';
import { learnFromUsage, type ModelKnowledge, openAnswer } from './open-answer';
import { summarize } from './summary';
import type { StepRecord, Thread } from './thread';
import type { AgentEvent, AgentOptions, AgentStreamOptions, StepPlan } from './types';
import { addStep, addToRun, costOf, type ModelPrice, type RunUsage } from './usage';

/**
 * A summary of what the fitted request leaves out, by the agent's summarizer; its usage counts in
 * the run's and the thread's (not as a step).
 */
function summaryFor(
  agent: StepAgent,
  thread: Thread,
  run: RunUsage,
  fitted: FittedContext,
  maxTokens: number,
  system: string | undefined,
  signal: AbortSignal,
) {
  return summarize(thread.messages, fitted, {
    model: agent.summarizer as ChatModel,
    note: thread.summary,
    system,
    maxTokens,
    signal,
    onUsage: (usage, model) => {
      const price = agent.prices?.[model.modelId];
      const cost = price ? costOf(usage, price) : undefined;
      addStep(thread.totals, usage, cost, 'summaries');
      addToRun(run, usage, cost);
    },
    onNote: (note) => {
      thread.summary = note;
    },
  });
}

/** What a step needs of its agent. */
export interface StepAgent {
  /** Summarizes the exchanges a fitted request leaves out (else they are dropped). */
  readonly summarizer: ChatModel | undefined;
  readonly model: ChatModel;
  /** Tried in order after the step's model when it cannot answer. */
  readonly fallbacks: readonly ChatModel[];
  readonly prices: Readonly<Record<string, ModelPrice>> | undefined;
  /** What the agent learned of each model's context (its window, its tokens per estimated one). */
  knowledge(model: ChatModel): ModelKnowledge;
  readonly invoker: ToolInvoker | undefined;
  readonly system: string | undefined;
  readonly settings: ModelSettings;
  readonly checkpointer: Checkpointer;
  readonly approve: AgentOptions['approve'];
  /** Start each call as soon as the model has written it, rather than once the answer is whole. */
  readonly eager: boolean;
}

/**
 * One model call with its tools, started as each call completes; saved when all is done. Its
 * usage and cost (and its summarizer's) are added to `progress`, the run's so far.
 */
export async function runStep(
  agent: StepAgent,
  thread: Thread,
  options: AgentStreamOptions,
  outer: AbortSignal,
  emit: (event: AgentEvent) => void,
  progress: RunUsage & { steps: number; text: string },
  output: ResolvedOutput | undefined,
  plan: StepPlan | undefined,
): Promise<{ ai: AIMessage; toolMessages: ToolMessage[] }> {
  // Approvals follow the invoker's own specs (the pool's, with the page's grants), whatever
  // prepareStep offers: a copy in its list cannot lift a `needsApproval`.
  const all = agent.invoker ? await agent.invoker.specs() : [];
  const specs = plan?.tools ?? all;
  // The invoker runs any of its tools: a call to one this step did not offer is refused here.
  const offered = plan?.tools && new Set(plan.tools.map((spec) => spec.name));
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
  let batches: AsyncIterator<StreamPart[]> | undefined;
  try {
    const system = plan?.system ?? agent.system;
    const opened = await openAnswer(
      agent.fallbacks.length > 0 || plan?.model ? [plan?.model ?? agent.model, ...agent.fallbacks] : [agent.model],
      {
        ...agent.settings,
        messages: plan?.messages ?? thread.messages,
        tools: specs,
        ...(system ? { system } : {}),
        ...(output ? { output: output.format } : {}),
      },
      {
        signal,
        step: progress.steps,
        knowledge: agent.knowledge,
        batchesOf,
        emit,
        // A summary stands for the thread's own messages only, not for a list prepareStep gave.
        ...(agent.summarizer && !plan?.messages
          ? { summarize: (fitted, maxTokens) => summaryFor(agent, thread, progress, fitted, maxTokens, system, signal) }
          : {}),
      },
    );
    batches = opened.batches;
    const partial = output && new PartialOutput();
    // A chunk's parts come together: the calls that close in it start together (one message per worker).
    // A model whose parts come without a wait (a stream of its own, not read in batches: a
    // scripted or in-page one) held the page for its whole answer and the calls it started
    // (a turn of 10,000 calls, 100-260 ms in one task): the loop lets the page run after each slice.
    const slice = new WorkSlice();
    for (let next = opened.first; !next.done; next = await batches.next()) {
      const batch = next.value;
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
            if (offered && !offered.has(call.name)) {
              own.push(notFound(call, emit, [...offered]));
              break;
            }
            const decided = verdictFor(agent.approve, call, {
              spec: all.find((spec) => spec.name === call.name),
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
      if (slice.spent) await slice.yield();
    }
    batches = undefined;
    const ai = opened.stream.message();
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
    const { model, fitted } = opened;
    const known = agent.knowledge(model);
    learnFromUsage(known, fitted, ai.usage?.inputTokens);
    const price = agent.prices?.[model.modelId];
    const cost = price ? costOf(ai.usage, price) : undefined;
    addStep(thread.totals, ai.usage, cost);
    addToRun(progress, ai.usage, cost);
    const record: StepRecord = { model: `${model.provider}:${model.modelId}` };
    if (ai.usage) record.usage = ai.usage;
    if (cost !== undefined) record.cost = cost;
    if (fitted && !plan?.messages) {
      record.sent = { ranges: fitted.ranges, tokens: fitted.tokens };
      if (thread.summary && fitted.from > fitted.head && thread.summary.upTo === fitted.from)
        record.sent.summary = thread.summary.upTo;
    }
    thread.messages = [...thread.messages, ai, ...toolMessages];
    thread.state = result.state;
    thread.pending = held;
    await thread.save(agent.checkpointer, record);
    progress.text = ai.content;
    const finished: AgentEvent = {
      type: 'step-finish',
      step: progress.steps,
      message: ai,
      toolMessages,
      model: { provider: model.provider, modelId: model.modelId },
    };
    if (ai.usage) finished.usage = ai.usage;
    if (cost !== undefined) finished.cost = cost;
    emit(finished);
    return { ai, toolMessages };
  } catch (error) {
    // The answer broke off or was stopped: the calls it started are cancelled with it.
    controller.abort(error);
    // As for await does when its body throws: the request is closed.
    await batches?.return?.().catch(() => {});
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
