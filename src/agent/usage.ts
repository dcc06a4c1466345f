/**
 * Usage that lasts: each step's tokens (and cost, with the app's prices) saved with its
 * checkpoint, the thread's totals beside them, and the budgets that stop a run before its next
 * model call.
 */
import { describeValue } from '../errors/moat-error';
import { isPlainObject } from '../json/json-value';
import type { Usage } from '../messages/types';

/**
 * What a model costs, per million tokens, in the app's currency. `cachedInput` is the price of
 * an input token read from the provider's cache, `cacheWrite` of one written to it (each
 * defaulting to `input`).
 */
export interface ModelPrice {
  input: number;
  output: number;
  cachedInput?: number;
  cacheWrite?: number;
}

/**
 * A thread's usage over all its model calls (its steps and its summarizer's). Every provider's figures mean the same here: `inputTokens`
 * counts the whole prompt, cached tokens included (Anthropic's uncached, cache-read and
 * cache-write figures are added up); `cachedInputTokens` the part read from the cache,
 * `cacheWriteTokens` the part written to it;
 * `reasoningTokens` the part of `outputTokens` spent thinking. A figure a provider did not report
 * adds nothing. `cost` is there once a call had a price.
 */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  cacheWriteTokens: number;
  reasoningTokens: number;
  /** The agent's model calls counted (its steps). */
  steps: number;
  /** The summarizer's calls, once it was called (their tokens and cost are in the figures above). */
  summaries?: number;
  cost?: number;
}

/** What a run has used so far, over its steps and its summarizer's calls. */
export interface RunUsage {
  usage: Usage;
  /** There once a call had a price. */
  cost: number | undefined;
}

/** Limits that stop a run (`stopReason: 'budget'`) before its next model call. Tokens: input + output. */
export interface Budget {
  /** Tokens this run may use. */
  runTokens?: number;
  /** Tokens the thread may have used, over all its runs. */
  threadTokens?: number;
  /** Cost this run may come to (needs `prices`). */
  runCost?: number;
  /** Cost the thread may come to, over all its runs (needs `prices`). */
  threadCost?: number;
}

/** Which limit stopped a run, what had been used and the limit. */
export interface BudgetStop {
  limit: keyof Budget;
  used: number;
  max: number;
}

const BUDGET_KEYS = ['runTokens', 'threadTokens', 'runCost', 'threadCost'] as const;

export function emptyTotals(): UsageTotals {
  return { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, steps: 0 };
}

/** A step's cost under `price`: uncached input, cache reads, cache writes and output, each at its rate. */
export function costOf(usage: Usage | undefined, price: ModelPrice): number {
  const input = usage?.inputTokens ?? 0;
  const cached = Math.min(usage?.cachedInputTokens ?? 0, input);
  const written = Math.min(usage?.cacheWriteTokens ?? 0, input - cached);
  const output = usage?.outputTokens ?? 0;
  const inputCost =
    (input - cached - written) * price.input +
    cached * (price.cachedInput ?? price.input) +
    written * (price.cacheWrite ?? price.input);
  return (inputCost + output * price.output) / 1e6;
}

/** Add one model call to `totals` (in place): a step, or a summarizer's call. */
export function addStep(
  totals: UsageTotals,
  usage: Usage | undefined,
  cost: number | undefined,
  kind: 'steps' | 'summaries' = 'steps',
): void {
  totals[kind] = (totals[kind] ?? 0) + 1;
  totals.inputTokens += usage?.inputTokens ?? 0;
  totals.outputTokens += usage?.outputTokens ?? 0;
  totals.cachedInputTokens += usage?.cachedInputTokens ?? 0;
  totals.cacheWriteTokens += usage?.cacheWriteTokens ?? 0;
  totals.reasoningTokens += usage?.reasoningTokens ?? 0;
  if (cost !== undefined) totals.cost = (totals.cost ?? 0) + cost;
}

/** Add one model call to a run's usage and cost (in place). */
export function addToRun(run: RunUsage, usage: Usage | undefined, cost: number | undefined): void {
  if (usage) {
    for (const key of Object.keys(usage) as (keyof Usage)[]) {
      const value = usage[key];
      if (typeof value === 'number') run.usage[key] = (run.usage[key] ?? 0) + value;
    }
  }
  if (cost !== undefined) run.cost = (run.cost ?? 0) + cost;
}

/** The totals a checkpoint's metadata kept; zeros for a thread saved before they were. */
export function totalsFrom(value: unknown): UsageTotals {
  const totals = emptyTotals();
  if (!isPlainObject(value)) return totals;
  for (const key of [
    'inputTokens',
    'outputTokens',
    'cachedInputTokens',
    'cacheWriteTokens',
    'reasoningTokens',
    'steps',
  ] as const) {
    const n = value[key];
    if (typeof n === 'number' && Number.isFinite(n) && n >= 0) totals[key] = n;
  }
  const { summaries, cost } = value;
  if (typeof summaries === 'number' && Number.isFinite(summaries) && summaries >= 0) totals.summaries = summaries;
  if (typeof cost === 'number' && Number.isFinite(cost) && cost >= 0) totals.cost = cost;
  return totals;
}

/** The first limit of `budget` reached, if any: a run stops there. */
export function overBudget(
  budget: Budget | undefined,
  run: { tokens: number; cost: number },
  thread: UsageTotals,
): BudgetStop | undefined {
  if (!budget) return undefined;
  const used = {
    runTokens: run.tokens,
    threadTokens: thread.inputTokens + thread.outputTokens,
    runCost: run.cost,
    threadCost: thread.cost ?? 0,
  };
  for (const limit of BUDGET_KEYS) {
    const max = budget[limit];
    if (max !== undefined && used[limit] >= max) return { limit, used: used[limit], max };
  }
  return undefined;
}

/** Check `budget` and `prices` options: a `TypeError` names the bad one. */
export function checkUsageOptions(budget: unknown, prices: unknown): void {
  if (budget !== undefined) {
    if (!isPlainObject(budget))
      throw new TypeError(`Expected \`budget\` to be an object, got ${describeValue(budget)}`);
    for (const key of Object.keys(budget)) {
      const value = budget[key];
      if (!(BUDGET_KEYS as readonly string[]).includes(key))
        throw new TypeError(`Unknown budget ${describeValue(key)}: expected one of ${BUDGET_KEYS.join(', ')}`);
      if (typeof value !== 'number' || !(value >= 0))
        throw new TypeError(`Expected \`budget.${key}\` to be a number of at least 0, got ${describeValue(value)}`);
    }
  }
  if (prices !== undefined) {
    if (!isPlainObject(prices))
      throw new TypeError(`Expected \`prices\` to map model ids to prices, got ${describeValue(prices)}`);
    for (const [model, price] of Object.entries(prices)) {
      const ok =
        isPlainObject(price) &&
        ['input', 'output', 'cachedInput', 'cacheWrite'].every(
          (k) =>
            ((k === 'cachedInput' || k === 'cacheWrite') && price[k] === undefined) ||
            (typeof price[k] === 'number' && price[k] >= 0),
        );
      if (!ok)
        throw new TypeError(
          `Expected the price of '${model}' to be { input, output, cachedInput?, cacheWrite? } per million tokens, got ${describeValue(price)}`,
        );
    }
  }
}
