import type { $ZodType, input, output } from 'zod/v4/core';
import { InvalidToolSpecError } from '../src/errors/invalid-tool-spec-error';
import type { ToolDescriptor } from '../src/pool/protocol';
import { TOOL_NAME_PATTERN, type ToolSpec } from '../src/providers/tool-spec';
import type { Store } from '../src/store/types';

/** What a tool gets besides its arguments. */
export interface ToolRuntime<State = unknown, Context = unknown> {
  /** The id of the call being run (the model's tool call id). */
  toolCallId: string;
  /** Aborts when the caller cancels or the call times out. Stop work when it fires. */
  signal: AbortSignal;
  /** Send a piece of output now (progress, partial text): streamed to the page as it happens. */
  emit(delta: unknown): void;
  /** A copy of the caller's state: all of it, or the one field the tool declared (`state`). */
  state: State;
  /** Run-level data from the caller (user id, locale, …), copied. */
  context: Context;
  /**
   * The long-term store the pool was given (`createWorkerPool({ store })`), limited to the
   * namespaces the tool declares. Without one, its calls reject with `StoreUnavailableError`.
   */
  store: Store;
  /** The specs of every tool this worker serves (built on first use). */
  tools: readonly ToolSpec[];
}

/** What `run` may give back: a value, a promise of one, or a stream of deltas whose return (or last item) is the result. */
export type ToolReturn<T> = T | Promise<T> | AsyncGenerator<unknown, T, unknown> | AsyncIterable<unknown>;

export interface ToolInit<Name extends string, Input extends $ZodType, Result> {
  /** 1–64 characters of a-z, A-Z, 0-9, _ or -. */
  name: Name;
  description: string;
  /** zod schema of the arguments (an object schema); they are validated before `run`. */
  input: Input;
  /** zod schema the result must satisfy (checked after `run`). */
  output?: $ZodType;
  /** Inject the caller's state: `true` for all of it, a field name for one field. */
  state?: true | string;
  /** Limit the tool's store access to these namespace prefixes. */
  store?: { namespaces: string[][] };
  /** An agent asks a person before running it (human in the loop); see `createAgent`'s approvals. */
  needsApproval?: boolean;
  /**
   * Safe to run twice (reads, pure computation): when another call's fault stops the worker in
   * the middle of this one, the pool runs it again, once, on a fresh worker.
   */
  idempotent?: boolean;
  /** It only reads: it changes nothing outside itself (told to WebMCP agents as `readOnlyHint`). */
  readOnly?: boolean;
  /**
   * The tool's own time limit in ms: its calls are stopped after this long instead of the
   * invoker's or the pool's `timeoutMs` (a limit given for one call still wins). For tools known
   * to be quick, or known to need longer.
   */
  timeoutMs?: number;
  run(args: output<Input>, runtime: ToolRuntime): ToolReturn<Result>;
}

/**
 * A tool, ready for `serveTools`. Its type keeps the tool's name, the arguments a call sends and
 * what `run` returns, so that a page can type its pool by the worker module's tools
 * (`createWorkerPool<typeof tools>(...)`, with `import type { tools } from './tools.worker'`).
 */
export interface ToolDefinition<Name extends string = string, Args = unknown, Result = unknown> {
  readonly name: Name;
  readonly description: string;
  /** The part of the caller's state the tool receives, as declared. */
  readonly state: ToolDescriptor['state'];
  /** The store namespaces the tool may touch (all, when undefined). */
  readonly storeNamespaces: string[][] | undefined;
  readonly input: $ZodType;
  readonly output: $ZodType | undefined;
  /** An agent asks before running it. */
  readonly needsApproval: boolean;
  /** Re-run once when a sibling's fault stops its worker. */
  readonly idempotent: boolean;
  readonly readOnly: boolean;
  /** Its own time limit (the pool's when undefined). */
  readonly timeoutMs: number | undefined;
  run(args: unknown, runtime: ToolRuntime): ToolReturn<unknown>;
  /** Types only, never set: the arguments a call sends (the input schema's input) and the result. */
  readonly '~types'?: { readonly args: Args; readonly result: Result };
}

/**
 * Define a tool. Its spec (name, description, JSON Schema of the input) is what the page sees;
 * the schema and `run` stay in the worker. Cheap: nothing is converted until the spec is asked for.
 *
 * @example
 * defineTool({
 *   name: 'multiply',
 *   description: 'Multiply two integers.',
 *   input: z.object({ a: z.number().int(), b: z.number().int() }),
 *   run: ({ a, b }) => a * b,
 * });
 */
export function defineTool<const Name extends string, Input extends $ZodType, Result>(
  init: ToolInit<Name, Input, Result>,
): ToolDefinition<Name, input<Input>, Result> {
  if (typeof init !== 'object' || init === null)
    throw new TypeError(`defineTool takes the tool's fields, got ${init === null ? 'null' : typeof init}`);
  if (typeof init.run !== 'function')
    throw new TypeError(`Tool '${init.name}' needs a run function, got ${typeof init.run}`);
  if (init.state !== undefined && init.state !== true && (typeof init.state !== 'string' || init.state === '')) {
    throw new TypeError(`Tool '${init.name}': state must be true or a field name, got ${JSON.stringify(init.state)}`);
  }
  if (typeof init.name !== 'string' || !TOOL_NAME_PATTERN.test(init.name)) {
    throw new InvalidToolSpecError({
      toolName: init.name,
      reason: 'names must be 1 to 64 characters of a-z, A-Z, 0-9, _ or -',
    });
  }
  const invalid = (reason: string) => new InvalidToolSpecError({ toolName: init.name, reason });
  if (typeof init.description !== 'string') throw invalid('the description must be a string');
  if (!isZodSchema(init.input)) throw invalid('`input` must be a zod schema');
  if (init.needsApproval !== undefined && typeof init.needsApproval !== 'boolean')
    throw invalid('`needsApproval` must be a boolean');
  for (const flag of ['idempotent', 'readOnly'] as const) {
    if (init[flag] !== undefined && typeof init[flag] !== 'boolean') throw invalid(`\`${flag}\` must be a boolean`);
  }
  if (init.output !== undefined && !isZodSchema(init.output)) throw invalid('`output` must be a zod schema');
  if (init.timeoutMs !== undefined && !(typeof init.timeoutMs === 'number' && init.timeoutMs > 0))
    throw invalid('`timeoutMs` must be a positive number of milliseconds (Infinity: no limit)');
  const namespaces = init.store?.namespaces;
  if (
    init.store !== undefined &&
    !(
      Array.isArray(namespaces) &&
      namespaces.every((ns) => Array.isArray(ns) && ns.length > 0 && ns.every((l) => typeof l === 'string' && l !== ''))
    )
  )
    throw invalid('`store.namespaces` must be a list of namespaces, each a list of non-empty labels');
  const state: ToolDescriptor['state'] =
    init.state === true ? { whole: true } : typeof init.state === 'string' ? { field: init.state } : undefined;
  // The spec (JSON Schema) is built by describeTool, when the page asks for it: not here.
  const tool: ToolDefinition<Name, input<Input>, Result> = {
    name: init.name,
    description: init.description,
    state,
    storeNamespaces: namespaces?.map((ns) => [...ns]),
    input: init.input,
    output: init.output,
    needsApproval: init.needsApproval === true,
    idempotent: init.idempotent === true,
    readOnly: init.readOnly === true,
    timeoutMs: init.timeoutMs,
    run: init.run as ToolDefinition['run'],
  };
  defined.add(tool);
  return tool;
}

const defined = new WeakSet<ToolDefinition>();

/** True for what `defineTool` returned (checked, so it can be served and described). */
export function isToolDefinition(value: unknown): value is ToolDefinition {
  return typeof value === 'object' && value !== null && defined.has(value as ToolDefinition);
}

/** A zod 4 schema (classic or mini): both carry their internals under `_zod`. */
function isZodSchema(value: unknown): value is $ZodType {
  return typeof value === 'object' && value !== null && typeof (value as { _zod?: unknown })._zod === 'object';
}
