/**
 * One run of an agent on a thread it holds: the calls left from before settled, the input added,
 * then steps until the model answers, a limit stops it, or calls wait for a person. Ends with
 * `finish` (what `agent.run` resolves with), or throws.
 */
import { describeValue } from '../errors/moat-error';
import { INTERRUPTED, toolFailure } from '../errors/tool-failure';
import { isPlainObject } from '../json/json-value';
import { checkMessages } from '../messages/message-json';
import type { AIMessage, Message, Usage } from '../messages/types';
import type { ChatModel } from '../models/types';
import type { ResolvedOutput } from '../output/output-schema';
import { readOutput } from '../output/read-output';
import type { RunRules } from './agent-options';
import { deniedMessage, interruptedMessage, resumeDecided } from './approvals';
import type { ParsedInput } from './input';
import { runStep, type StepAgent } from './step';
import { inCallOrder, type Thread } from './thread';
import type { AgentEvent, AgentResult, AgentStopReason, AgentStreamOptions, StepPlan } from './types';
import { type BudgetStop, overBudget, type RunUsage } from './usage';

/** What one run is: its input, its thread (held), its options, and where its events go. */
export interface HeldRun {
  parsed: ParsedInput;
  thread: Thread;
  options: AgentStreamOptions;
  output: ResolvedOutput | undefined;
  signal: AbortSignal;
  emit: (event: AgentEvent) => void;
}

/** Run the loop on a held thread; the last event is `finish`, unless it throws. */
export async function runOnThread(agent: StepAgent, rules: RunRules, run: HeldRun): Promise<void> {
  const { parsed, thread, options, output, signal } = run;
  const threadId = thread.id;
  // A failed call's kind and sentence for a person go with the thread: a reload shows them as they were.
  const emit = (event: AgentEvent) => {
    if (event.type === 'tool-error') thread.failures[event.toolCallId] = toolFailure(event.error);
    run.emit(event);
  };
  if (options.state) thread.state = { ...thread.state, ...options.state };
  // The run so far: its steps, its last answer's text, its usage and cost (summaries included).
  const progress: RunUsage & { steps: number; text: string } = { steps: 0, text: '', usage: {}, cost: undefined };
  const { usage } = progress;
  const finish = (stopReason: AgentStopReason, answer?: { output: unknown }, budget?: BudgetStop) => {
    const result: AgentResult & { output?: unknown } = {
      threadId,
      text: progress.text,
      messages: [...thread.messages],
      stopReason,
      usage,
      state: thread.state,
      steps: progress.steps,
      totals: { ...thread.totals },
    };
    if (thread.pending.length > 0) result.pendingApprovals = [...thread.pending];
    if (progress.cost !== undefined) result.cost = progress.cost;
    if (budget) result.budget = budget;
    if (answer) result.output = answer.output;
    emit({ type: 'finish', ...result });
  };
  // Stopped while it waited for the thread: nothing was done.
  if (signal.aborted) return finish('aborted');
  try {
    // Approved calls that were running when the page went away are never run again.
    if (thread.running.length > 0) {
      thread.messages = inCallOrder([...thread.messages, ...thread.running.map(interruptedMessage)]);
      // A call stopped while it ran was said to be so (its failure is kept): only one the page lost is interrupted.
      for (const call of thread.running) thread.failures[call.id] ??= INTERRUPTED;
      thread.running = [];
    }
    if ('approvals' in parsed) {
      await resumeDecided(thread, parsed.approvals, {
        checkpointer: agent.checkpointer,
        invoker: agent.invoker,
        context: options.context,
        signal,
        emit,
      });
      if (thread.pending.length > 0) return finish('approval');
    } else {
      // A new message while calls wait: they are refused, so the thread stays well-formed.
      refuse(thread, 'the user sent a new message instead of deciding', emit);
      thread.messages.push(...parsed.messages);
    }
    for (;;) {
      if (progress.steps >= rules.maxSteps) return finish('max-steps');
      const spent = { tokens: (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0), cost: progress.cost ?? 0 };
      const over = overBudget(rules.budget, spent, thread.totals);
      if (over) {
        // Stopped before its first model call: the user's message is kept all the same.
        if (progress.steps === 0 && 'messages' in parsed) await thread.save(agent.checkpointer);
        return finish('budget', undefined, over);
      }
      progress.steps++;
      progress.text = '';
      const plan = rules.prepareStep && (await planStep(agent, rules, progress.steps, thread, usage));
      const step = await runStep(agent, thread, options, signal, emit, progress, output, plan);
      const { ai } = step;
      if (thread.pending.length > 0) {
        if (thread.saving) {
          for (const toolCall of thread.pending) emit({ type: 'approval-request', toolCall });
          return finish('approval');
        }
        // A run that keeps nothing has nothing to resume from: the model hears the calls refused.
        refuse(thread, "it needs a person's approval, which a run that saves nothing cannot wait for", emit);
        continue;
      }
      if (ai.toolCalls.length === 0 && ai.invalidToolCalls.length === 0) {
        const stopReason = stopReasonOf(ai);
        if (!output) return finish(stopReason);
        return finish(stopReason, { output: await readOutput(ai.content, output, stopReason) });
      }
      for (const condition of rules.stopWhen) {
        const context = { steps: progress.steps, message: ai, toolMessages: step.toolMessages };
        if (await condition({ ...context, messages: thread.messages, usage, totals: thread.totals }))
          return finish('stop-when');
      }
    }
  } catch (error) {
    if (signal.aborted && !thread.unsaved) return finish('aborted');
    throw error;
  }
}

/** The calls waiting for a decision, refused with `reason` (the model reads it). */
function refuse(thread: Thread, reason: string, emit: (event: AgentEvent) => void): void {
  const refused = thread.pending.map((call) => deniedMessage(call, reason, emit));
  thread.messages = inCallOrder([...thread.messages, ...refused]);
  thread.pending = [];
}

/** What `prepareStep` says of the step to come, checked. */
async function planStep(
  agent: StepAgent,
  rules: RunRules,
  step: number,
  thread: Thread,
  usage: Usage,
): Promise<StepPlan | undefined> {
  const prepare = rules.prepareStep as NonNullable<RunRules['prepareStep']>;
  const plan: StepPlan | undefined = await prepare({
    step,
    messages: thread.messages,
    model: agent.model,
    tools: agent.invoker ? [...(await agent.invoker.specs())] : [],
    system: agent.system,
    usage: { ...usage },
    totals: { ...thread.totals },
  });
  if (plan === undefined) return undefined;
  if (!isPlainObject(plan)) throw new TypeError(`prepareStep returned ${describeValue(plan)}, not a step plan`);
  if (plan.model !== undefined && typeof (plan.model as Partial<ChatModel> | null)?.stream !== 'function')
    throw new TypeError(`prepareStep's model is not a chat model: ${describeValue(plan.model)}`);
  if (plan.tools !== undefined && !Array.isArray(plan.tools))
    throw new TypeError(`prepareStep's tools are not a list of tool specs: ${describeValue(plan.tools)}`);
  if (plan.system !== undefined && typeof plan.system !== 'string')
    throw new TypeError(`prepareStep's system is not a string: ${describeValue(plan.system)}`);
  if (plan.messages !== undefined) return { ...plan, messages: checkMessages(plan.messages as Message[]) };
  return plan;
}

function stopReasonOf(ai: AIMessage): AgentStopReason {
  return ai.stopReason === 'length' || ai.stopReason === 'content-filter' ? ai.stopReason : 'end';
}
