/**
 * A step's model call up to its answer's first part: the request fitted to the model's context
 * window, fitted again and sent once more when the provider says it is too long, and the next of
 * the fallback models tried when a model cannot answer. Everything here happens before any part
 * of an answer is seen, so a step's answer is always one model's.
 */

import { isContextOverflow, overflowFigures } from '../errors/context-overflow';
import { ModelHTTPError } from '../errors/model-http-error';
import { ModelNetworkError } from '../errors/model-network-error';
import type { Message } from '../messages/types';
import type { ChatModel, ModelRequest, ModelStream } from '../models/types';
import type { ToolSpec } from '../providers/tool-spec';
import type { StreamPart } from '../stream/stream-part';
import { type FittedContext, fitContext } from './fit-context';
import type { Summarized } from './summary';
import type { AgentEvent } from './types';

/** What the agent has learned of a model from its provider: its window, and its tokens per estimated one. */
export interface ModelKnowledge {
  window?: number;
  calibration: number;
}

/** The request of a step, before it is fitted to a model. */
export interface StepRequest extends Omit<ModelRequest, 'messages' | 'signal'> {
  messages: readonly Message[];
  tools: readonly ToolSpec[];
  system?: string;
}

export interface OpenedAnswer {
  model: ChatModel;
  stream: ModelStream;
  batches: AsyncIterator<StreamPart[]>;
  /** The first batch, already read. */
  first: IteratorResult<StreamPart[]>;
  /** What was sent, when it was fitted to a window. */
  fitted: FittedContext | undefined;
}

/** Room kept free below the window, beyond the answer's: the estimate is an estimate. */
const MARGIN = 0.95;
/** A model call that overflowed with no sizes quoted is fitted again as if it had been this much smaller. */
const SHRINK = 0.6;

/**
 * Open the step's answer on the first model that gives one. `batchesOf` reads a stream in
 * batches (the same as the step's loop uses).
 */
export async function openAnswer(
  models: readonly ChatModel[],
  request: StepRequest,
  options: {
    signal: AbortSignal;
    step: number;
    knowledge: (model: ChatModel) => ModelKnowledge;
    batchesOf: (stream: ModelStream) => AsyncIterable<StreamPart[]>;
    emit: (event: AgentEvent) => void;
    /** Summarize what a fitted request left out (`summarizer`), in at most `maxTokens`. */
    summarize?: (fitted: FittedContext, maxTokens: number) => Promise<Summarized | undefined>;
  },
): Promise<OpenedAnswer> {
  for (let m = 0; ; m++) {
    const model = models[m] as ChatModel;
    const known = options.knowledge(model);
    let refitted = false;
    for (;;) {
      const window = smaller(model.contextWindow, known.window);
      // Room for a summary of what is left out, when there is a summarizer.
      const summaryTokens = options.summarize && window ? Math.min(1_024, Math.floor(window / 8)) : 0;
      const fitted = window === undefined ? undefined : fitTo(request, window, known.calibration, summaryTokens);
      const summary =
        fitted && options.summarize
          ? await summaryOf(options.summarize, fitted, summaryTokens, options.signal)
          : undefined;
      if (fitted && summary) fitted.from = summary.from;
      const stream = model.stream({
        ...request,
        ...(summary ? { system: summary.system } : {}),
        messages: summary?.messages ?? fitted?.messages ?? request.messages,
        signal: options.signal,
      });
      const batches = options.batchesOf(stream)[Symbol.asyncIterator]();
      let error: unknown;
      try {
        return { model, stream, batches, first: await batches.next(), fitted };
      } catch (caught) {
        error = caught;
      }
      if (options.signal.aborted) throw error;
      const overflow = isContextOverflow(error);
      if (overflow && !refitted) {
        refitted = true;
        learnFromOverflow(known, error as ModelHTTPError, fitted, () => estimateOf(request, known.calibration));
        options.emit(retryEvent(options.step, 'context-overflow', model, model, error));
        continue;
      }
      const next = models[m + 1];
      if (!next || !(overflow || unavailable(error))) throw error;
      options.emit(retryEvent(options.step, overflow ? 'context-overflow' : 'unavailable', model, next, error));
      break;
    }
  }
}

/**
 * After a step, what the provider counted teaches how far the estimate is off: the next requests
 * are estimated at the provider's rate.
 */
export function learnFromUsage(
  known: ModelKnowledge,
  fitted: FittedContext | undefined,
  inputTokens: number | undefined,
) {
  if (!fitted || !inputTokens || fitted.tokens <= 0) return;
  const raw = fitted.tokens / known.calibration;
  known.calibration = clamp(inputTokens / raw);
}

/** The summary, or none when the summarizer failed: the request then goes without it, as when there is none. */
async function summaryOf(
  summarize: NonNullable<Parameters<typeof openAnswer>[2]['summarize']>,
  fitted: FittedContext,
  maxTokens: number,
  signal: AbortSignal,
): Promise<Summarized | undefined> {
  try {
    return await summarize(fitted, maxTokens);
  } catch (error) {
    if (signal.aborted) throw error;
    return undefined;
  }
}

function fitTo(request: StepRequest, window: number, calibration: number, summary: number): FittedContext {
  const reserve = (request.maxTokens ?? Math.min(4_096, Math.floor(window / 4))) + summary;
  return fitContext(request.messages, {
    window: Math.floor(window * MARGIN),
    reserve,
    system: request.system,
    tools: request.tools,
    calibration,
  });
}

function learnFromOverflow(
  known: ModelKnowledge,
  error: ModelHTTPError,
  fitted: FittedContext | undefined,
  estimate: () => number,
): void {
  const figures = overflowFigures(error);
  if (figures) {
    known.window = Math.min(known.window ?? figures.limit, figures.limit);
    if (fitted) known.calibration = clamp((figures.sent / fitted.tokens) * known.calibration);
  } else if (fitted) {
    // The provider did not say by how much: count each token as more.
    known.calibration = clamp(known.calibration / SHRINK);
  } else known.window = Math.max(1, Math.floor(estimate() * SHRINK));
}

/** The whole request's size as estimated (for a model with no window yet). */
function estimateOf(request: StepRequest, calibration: number): number {
  const { messages, system, tools } = request;
  return fitContext(messages, { window: Number.POSITIVE_INFINITY, reserve: 0, system, tools, calibration }).tokens;
}

function smaller(a: number | undefined, b: number | undefined): number | undefined {
  return a === undefined ? b : b === undefined ? a : Math.min(a, b);
}

/** A failure another model may not have: no answer, 5xx, 429, 529, 408, 409. */
function unavailable(error: unknown): boolean {
  return ModelNetworkError.isInstance(error) || (ModelHTTPError.isInstance(error) && error.retryable);
}

function clamp(calibration: number): number {
  return Math.min(8, Math.max(0.25, calibration));
}

function retryEvent(
  step: number,
  reason: 'unavailable' | 'context-overflow',
  from: ChatModel,
  to: ChatModel,
  error: unknown,
): AgentEvent {
  return {
    type: 'model-retry',
    step,
    reason,
    from: { provider: from.provider, modelId: from.modelId },
    to: { provider: to.provider, modelId: to.modelId },
    error: error instanceof Error ? error : new Error(String(error)),
  };
}
