import { $ZodAsyncError, safeParse, safeParseAsync } from 'zod/v4/core';
import type { ValidationIssue } from '../src/errors/message-validation-error';
import { ToolError } from '../src/errors/tool-error';
import { ToolExecutionError } from '../src/errors/tool-execution-error';
import { ToolInputValidationError } from '../src/errors/tool-input-validation-error';
import { ToolOutputError } from '../src/errors/tool-output-error';
import type { CallResult, ResultFormat } from '../src/pool/protocol';
import type { ToolSpec } from '../src/providers/tool-spec';
import type { Store } from '../src/store/types';
import type { ToolDefinition, ToolRuntime } from './define-tool';
import { convertResult } from './results';

/** One call, as the tool runner sees it. */
export interface ToolCallInput {
  toolCallId: string;
  name: string;
  args: unknown;
  state?: unknown;
  context?: unknown;
  resultFormat?: ResultFormat;
}

/** What the runner gives the tool besides its call. */
export interface ToolRunEnvironment {
  /** The call's abort signal, asked for only when the tool (or a stream it returns) needs it. */
  signal(): AbortSignal;
  emit(delta: unknown): void;
  /**
   * The store for this tool (already limited to its namespaces), on first use; without one, a
   * store whose calls reject with `StoreUnavailableError` (see `unavailableStore`).
   */
  store(): Store;
  tools(): readonly ToolSpec[];
}

/**
 * Run one call of a tool with Moat's semantics, wherever it runs (a worker, or the page for
 * inline tools): validate the arguments with the tool's zod schema, hand it its runtime, drain
 * a stream of deltas, check the output schema, convert the result to text. Synchronous up to the
 * tool's first `await`; throws or rejects with a typed error.
 */
export function executeTool(
  tool: ToolDefinition,
  call: ToolCallInput,
  env: ToolRunEnvironment,
): CallResult | Promise<CallResult> {
  let parsed: Parsed;
  try {
    parsed = safeParse(tool.input, call.args);
  } catch (error) {
    if (!(error instanceof $ZodAsyncError)) throw error;
    return safeParseAsync(tool.input, call.args).then((p) => invoke(tool, call, p, env));
  }
  return invoke(tool, call, parsed, env);
}

type Parsed = { success: true; data: unknown } | { success: false; error: { issues: readonly Issue[] } };

function invoke(
  tool: ToolDefinition,
  call: ToolCallInput,
  parsed: Parsed,
  env: ToolRunEnvironment,
): CallResult | Promise<CallResult> {
  if (!parsed.success) {
    throw new ToolInputValidationError({
      toolName: call.name,
      toolCallId: call.toolCallId,
      issues: toIssues(parsed.error.issues),
    });
  }
  const runtime = new Runtime(tool, call, env);
  let returned: unknown;
  try {
    returned = tool.run(parsed.data, runtime);
  } catch (error) {
    throw executionError(error, call);
  }
  if (!tool.output && !isThenable(returned) && !isAsyncIterable(returned)) return convertOrThrow(returned, call);
  return finish(tool, call, returned, env);
}

async function finish(
  tool: ToolDefinition,
  call: ToolCallInput,
  returned: unknown,
  env: ToolRunEnvironment,
): Promise<CallResult> {
  let value: unknown;
  try {
    value = await drain(returned, env.emit, env.signal);
  } catch (error) {
    throw executionError(error, call);
  }
  if (tool.output) {
    const checked = await safeParseAsync(tool.output, value);
    if (!checked.success) {
      const issues = toIssues(checked.error.issues);
      throw new ToolOutputError({
        toolName: call.name,
        toolCallId: call.toolCallId,
        reason: `it does not match the output schema: ${issues.map((i) => `${i.path.join('.') || 'result'}: ${i.message}`).join('; ')}`,
      });
    }
  }
  return convertOrThrow(value, call);
}

/** Run to the result: a value, a promise, or an async iterable of deltas (its return value, or last item, is the result). */
async function drain(value: unknown, emit: (delta: unknown) => void, signal: () => AbortSignal): Promise<unknown> {
  if (!isAsyncIterable(value)) return await value;
  const iterator = value[Symbol.asyncIterator]();
  let last: unknown;
  try {
    while (true) {
      signal().throwIfAborted();
      const step = await iterator.next();
      if (step.done) return step.value !== undefined ? step.value : last;
      last = step.value;
      emit(step.value);
    }
  } catch (error) {
    await iterator.return?.();
    throw error;
  }
}

function isAsyncIterable(value: unknown): value is AsyncIterable<unknown> {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function'
  );
}

/**
 * The `runtime` a tool receives. Made for every call, so it is cheap: the signal, the store and
 * the tool list are fetched on first use (getters on the prototype), the rest are plain fields.
 */
class Runtime implements ToolRuntime {
  readonly toolCallId: string;
  readonly emit: (delta: unknown) => void;
  readonly state: unknown;
  readonly context: unknown;
  readonly #env: ToolRunEnvironment;
  #store: Store | undefined;

  constructor(tool: ToolDefinition, call: ToolCallInput, env: ToolRunEnvironment) {
    const declared = tool.state;
    this.toolCallId = call.toolCallId;
    this.emit = env.emit;
    this.state =
      declared === undefined ? undefined : 'whole' in declared ? call.state : pick(call.state, declared.field);
    this.context = call.context;
    this.#env = env;
  }

  get signal(): AbortSignal {
    return this.#env.signal();
  }

  get store(): Store {
    this.#store ??= this.#env.store();
    return this.#store;
  }

  get tools(): readonly ToolSpec[] {
    return this.#env.tools();
  }
}

function pick(state: unknown, field: string): unknown {
  return typeof state === 'object' && state !== null && Object.hasOwn(state, field)
    ? (state as Record<string, unknown>)[field]
    : undefined;
}

function convertOrThrow(value: unknown, call: ToolCallInput): CallResult {
  const converted = convertResult(value, call.resultFormat);
  if (!converted.ok)
    throw new ToolOutputError({ toolName: call.name, toolCallId: call.toolCallId, reason: converted.reason });
  return converted.result;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return (
    (typeof value === 'object' || typeof value === 'function') &&
    value !== null &&
    typeof (value as PromiseLike<unknown>).then === 'function'
  );
}

type Issue = { path: readonly PropertyKey[]; message: string; code?: string };

function executionError(error: unknown, call: ToolCallInput): Error {
  if (ToolError.isInstance(error)) return error as Error;
  return new ToolExecutionError({ toolName: call.name, toolCallId: call.toolCallId, cause: error });
}

function toIssues(issues: readonly Issue[]): ValidationIssue[] {
  return issues.map((i) => {
    const issue: ValidationIssue = {
      path: i.path.map((p) => (typeof p === 'symbol' ? String(p) : p)),
      message: i.message,
    };
    if (i.code) issue.code = i.code;
    return issue;
  });
}
