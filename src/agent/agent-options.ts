/**
 * `createAgent`'s options, checked at once (a `TypeError` quoting the bad value), and what the
 * agent makes of them: the step's needs (model, tools, settings, memory) and the run's rules.
 */
import { describeValue } from '../errors/moat-error';
import { checkCount } from '../errors/option-checks';
import { ToolInvoker } from '../invoker/tool-invoker';
import { checkSettings } from '../models/settings';
import type { ChatModel, ModelSettings } from '../models/types';
import { checkOutputSchema, type OutputSchema } from '../output/output-schema';
import type { ToolSet } from '../pool/pool-options';
import type { WorkerPool } from '../pool/worker-pool';
import type { ModelKnowledge } from './open-answer';
import type { StepAgent } from './step';
import { threadMemory } from './thread';
import type { AgentOptions, StopCondition } from './types';
import { type Budget, checkUsageOptions } from './usage';

/** What a run of the agent follows, beyond its steps. */
export interface RunRules {
  readonly maxSteps: number;
  readonly budget: Budget | undefined;
  readonly prepareStep: AgentOptions['prepareStep'];
  readonly stopWhen: readonly StopCondition[];
}

/** The agent's parts, from its options. */
export interface AgentParts {
  step: StepAgent;
  rules: RunRules;
  /** No checkpointer was given: the threads live in the agent's own memory, this page's alone. */
  local: boolean;
  output: OutputSchema | undefined;
}

/** Check `createAgent`'s options and make the agent's parts of them. */
export function agentParts<Tools extends ToolSet>(options: AgentOptions<Tools>): AgentParts {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`createAgent takes an options object, got ${describeValue(options)}`);
  const { model, pool, tools, invoker, system, approve, eagerTools, checkpointer } = options;
  if (typeof model?.stream !== 'function')
    throw new TypeError(`Expected \`model\` to be a chat model (openAICompatible(…), …), got ${describeValue(model)}`);
  if (pool !== undefined && invoker !== undefined)
    throw new TypeError('Give the agent a `pool` or an `invoker` (which has its pool), not both');
  if (tools !== undefined && invoker !== undefined)
    throw new TypeError('Give `tools` to your invoker (`new ToolInvoker({ pool, tools })`), not beside it');
  if (invoker !== undefined && !(invoker instanceof ToolInvoker))
    throw new TypeError(`Expected \`invoker\` to be a ToolInvoker, got ${describeValue(invoker)}`);
  if (system !== undefined && typeof system !== 'string')
    throw new TypeError(`Expected \`system\` to be a string, got ${describeValue(system)}`);
  if (approve !== undefined && typeof approve !== 'function')
    throw new TypeError(`Expected \`approve\` to be a function, got ${describeValue(approve)}`);
  if (eagerTools !== undefined && typeof eagerTools !== 'boolean')
    throw new TypeError(`Expected \`eagerTools\` to be a boolean, got ${describeValue(eagerTools)}`);
  if (checkpointer !== undefined && (typeof checkpointer?.get !== 'function' || typeof checkpointer.put !== 'function'))
    throw new TypeError(`Expected \`checkpointer\` to be a Checkpointer, got ${describeValue(checkpointer)}`);
  if (options.output !== undefined) checkOutputSchema(options.output);
  const { fallbackModels, prices, budget, prepareStep, stopWhen } = options;
  if (
    fallbackModels !== undefined &&
    !(Array.isArray(fallbackModels) && fallbackModels.every((m) => typeof m?.stream === 'function'))
  )
    throw new TypeError(
      `Expected \`fallbackModels\` to be a list of chat models, got ${describeValue(fallbackModels)}`,
    );
  checkUsageOptions(budget, prices);
  if (prepareStep !== undefined && typeof prepareStep !== 'function')
    throw new TypeError(`Expected \`prepareStep\` to be a function, got ${describeValue(prepareStep)}`);
  const conditions = stopWhen === undefined ? [] : Array.isArray(stopWhen) ? [...stopWhen] : [stopWhen];
  if (!conditions.every((c) => typeof c === 'function'))
    throw new TypeError(`Expected \`stopWhen\` to be a function or a list of them, got ${describeValue(stopWhen)}`);
  const { temperature, maxTokens, toolChoice, parallelToolCalls, providerOptions } = options;
  const settings: ModelSettings = Object.fromEntries(
    Object.entries({ temperature, maxTokens, toolChoice, parallelToolCalls, providerOptions }).filter(
      ([, v]) => v !== undefined,
    ),
  );
  checkSettings(settings);
  const knowledge = new WeakMap<ChatModel, ModelKnowledge>();
  if (options.summarizer !== undefined && typeof options.summarizer?.stream !== 'function')
    throw new TypeError(`Expected \`summarizer\` to be a chat model, got ${describeValue(options.summarizer)}`);
  const step: StepAgent = {
    model,
    summarizer: options.summarizer,
    fallbacks: fallbackModels ? [...fallbackModels] : [],
    prices,
    knowledge: (m) => {
      const known = knowledge.get(m) ?? { calibration: 1 };
      knowledge.set(m, known);
      return known;
    },
    // Inside, the tools' types are not needed: only the events the caller reads carry them.
    invoker:
      (invoker as ToolInvoker | undefined) ??
      (pool || tools?.length
        ? new ToolInvoker({ ...(pool ? { pool: pool as WorkerPool } : {}), tools: tools ?? [] })
        : undefined),
    system,
    settings,
    checkpointer: checkpointer ?? threadMemory(),
    approve,
    eager: eagerTools ?? true,
  };
  const maxSteps = checkCount('maxSteps', options.maxSteps ?? 10, { min: 1 });
  return {
    step,
    rules: { maxSteps, budget, prepareStep, stopWhen: conditions },
    local: checkpointer === undefined,
    output: options.output,
  };
}
