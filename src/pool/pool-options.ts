/**
 * What a pool is given, checked: the options, their defaults, and the call options and
 * figures it reports. A bad option is a `TypeError` that names it, thrown by `createWorkerPool`.
 */

import type { ToolDefinition } from '../../worker/define-tool';
import type { WithArtifact, WithUpdate } from '../../worker/results';
import { describeValue } from '../errors/moat-error';
import { checkCount, checkDuration } from '../errors/option-checks';
import { sealedWorkers } from '../frame/framed-worker';
import { PageStoreHost } from '../frame/page-store-host';
import { isPlainObject } from '../json/json-value';
import type { FilePart, ImagePart } from '../messages/types';
import { checkNamespace } from '../store/validate';
import { OUTPUT_LIMITS, type OutputLimits, type TurnBudget } from './output-budget';
import type { ResultFormat } from './protocol';

/** Which URLs tool code may reach: all, none, or those the function allows (evaluated on the page). */
export type NetworkPolicy = 'allow' | 'deny' | ((url: string, api: string) => boolean);

/** What the page allows one tool: the copy that is enforced, whatever the tools module says. */
export interface ToolGrant {
  /**
   * The store namespaces (prefixes) the tool may touch, or `'all'`: the pool's whole database.
   * Default: none.
   */
  store?: readonly (readonly string[])[] | 'all';
  /** An agent asks a person before each call (its default policy; `approve` may decide instead). */
  needsApproval?: boolean;
}

/** The grants by tool name, checked. */
export type Grants = ReadonlyMap<string, { store: string[][] | 'all' | undefined; needsApproval: boolean }>;

/** `createWorkerPool`'s `grants`, checked: a TypeError names what is wrong. */
export function checkGrants(value: unknown): Grants {
  const grants = new Map<string, { store: string[][] | 'all' | undefined; needsApproval: boolean }>();
  if (value === undefined) return grants;
  if (!isPlainObject(value))
    throw new TypeError(`Expected \`grants\` to be an object of tool names, got ${describeValue(value)}`);
  for (const [name, grant] of Object.entries(value)) {
    const at = `grants.${name}`;
    if (!isPlainObject(grant)) throw new TypeError(`Expected \`${at}\` to be an object, got ${describeValue(grant)}`);
    const { store, needsApproval } = grant as ToolGrant;
    if (needsApproval !== undefined && typeof needsApproval !== 'boolean')
      throw new TypeError(`Expected \`${at}.needsApproval\` to be a boolean, got ${describeValue(needsApproval)}`);
    let namespaces: string[][] | 'all' | undefined;
    if (store === 'all' || store === undefined) namespaces = store;
    else if (Array.isArray(store)) {
      namespaces = store.map((ns) => {
        try {
          return [...checkNamespace(ns)];
        } catch (error) {
          throw new TypeError(`Expected \`${at}.store\` to hold namespaces: ${(error as Error).message}`);
        }
      });
    } else
      throw new TypeError(
        `Expected \`${at}.store\` to be a list of namespaces (such as [['notes']]) or 'all', got ${describeValue(store)}`,
      );
    grants.set(name, { store: namespaces, needsApproval: needsApproval === true });
  }
  return grants;
}

export interface WorkerPoolOptions {
  /**
   * The tools module's URL (with Vite: `import toolsUrl from './tools.worker.ts?worker&url'`):
   * its workers run sealed, inside a sandboxed frame at an opaque origin, in a process apart from
   * the page's, where the browser denies them the app's storage, the page, and (under
   * `network: 'deny'`) the network. `framedWorkers(url)` is the same.
   *
   * Or a function that makes a plain worker of the page's own origin, the faster and weaker
   * mode: `() => new Worker(new URL('./tools.worker.ts', import.meta.url), { type: 'module' })`.
   */
  worker: string | URL | (() => Worker);
  /** Workers at most. Default: `navigator.hardwareConcurrency - 1`, at least 1. */
  size?: number;
  /**
   * Per-call time limit from the moment the call is sent to a worker. Default 30,000 ms. It is
   * also the longest limit a tool may give itself (`defineTool({ timeoutMs })`), unless
   * `maxToolTimeoutMs` says otherwise.
   */
  timeoutMs?: number;
  /**
   * The longest time limit a tool may declare for itself, in ms (`Infinity`: any). Default: the
   * pool's `timeoutMs`. What a tools module says of itself is untrusted: it may shorten its
   * limit, never lengthen it past this.
   */
  maxToolTimeoutMs?: number;
  /** Calls waiting for a worker, at most; one more is a `PoolQueueFullError`. Default 100,000. */
  maxQueue?: number;
  /**
   * Calls one worker holds at once (they run concurrently if they await). Default 64. More lets
   * a batch carry more calls; fewer limits what a worker that must be stopped takes with it.
   */
  concurrency?: number;
  /** After an abort, how long a tool may take to honour its signal before its worker is stopped. Default 500 ms. */
  abortGraceMs?: number;
  /** How long a new worker may take to answer the handshake. Default 10,000 ms. */
  startTimeoutMs?: number;
  /** Network access for tool code. Default `'deny'`: a tool reaches nothing unless you say so. */
  network?: NetworkPolicy;
  /**
   * How long a tool that timed out or crashed its worker stays in quarantine, where each of its
   * calls runs alone on a worker of its own. Default 60,000 ms; 0 turns quarantine off.
   */
  quarantineMs?: number;
  /** Workers for quarantined calls, beyond `size` (each runs one call at a time). Default 1. */
  quarantineWorkers?: number;
  /**
   * The IndexedDB database tools get as `runtime.store` (open the same name on the page with
   * `openIndexedDBStore` to share it). Without it, `runtime.store` is undefined.
   */
  store?: string;
  /**
   * What the page allows each tool, by name: the store namespaces it may touch (`store:
   * [['notes']]`, or `'all'`) and whether a person approves each call (`needsApproval: true`).
   * This is what is enforced: a tools module can narrow it (declare an approval of its own), never
   * widen it. A sealed tool granted no namespace gets no store. A name the module does not serve
   * fails `specs()` with a TypeError.
   *
   * @example grants: { remember: { store: [['memory']] }, forget: { store: [['memory']], needsApproval: true } }
   */
  grants?: Readonly<Record<string, ToolGrant>>;
  /**
   * The most one call's result may hold (its text, artifact, update and media together), about
   * the length of its JSON text: a larger one fails the call with `ToolOutputLimitError`.
   * Default 8 Mi (8,388,608) characters.
   */
  maxResultSize?: number;
  /**
   * The most progress one call may stream (every `emit` and yield together); past it the call
   * fails with `ToolOutputLimitError` and is stopped. Default 16 Mi characters.
   */
  maxProgressSize?: number;
  /**
   * The most a turn's calls may send back together (the calls given one `turn`, one `callMany`,
   * one invoker turn): past it the call that went over fails. Default 32 Mi characters.
   */
  maxTurnSize?: number;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** This call's time limit: wins over the tool's own and the pool's (`Infinity`: none). */
  timeoutMs?: number;
  /**
   * The limit for a tool that declares none of its own, instead of the pool's: what an invoker's
   * `timeoutMs` gives. A tool's own limit (`defineTool({ timeoutMs })`) wins over it.
   */
  defaultTimeoutMs?: number;
  /** The caller's state; each tool receives the part it declared. */
  state?: unknown;
  /** Run-level data for the tool (`runtime.context`). */
  context?: unknown;
  /** How a non-string result becomes text. Default `'string'` (strings as they are, the rest as JSON). */
  resultFormat?: ResultFormat;
  /** Each piece of output the tool emits, as it arrives. */
  onDelta?: (delta: unknown, toolCallId: string) => void;
  /**
   * The turn this call belongs to: calls given the same object share `maxTurnSize`. `callMany`
   * gives its calls one; the invoker, each turn's.
   */
  turn?: TurnBudget;
  /**
   * The call is being run again (another call's fault stopped its worker while it ran, and its
   * tool is idempotent): output seen so far may come again.
   */
  onRerun?: (info: { toolCallId: string; reason: string }) => void;
}

export type CallOutcome = { status: 'fulfilled'; value: ToolResult } | { status: 'rejected'; reason: Error };

export interface PoolStats {
  /** Workers alive (starting or connected). */
  workers: number;
  /** Workers holding at least one call. */
  busy: number;
  /** Calls waiting for a worker. */
  queued: number;
  /** Calls sent to workers and not settled. */
  running: number;
  /** Workers stopped and replaced after a timeout, crash or ignored abort. */
  restarted: number;
  /** Calls that had started on a stopped worker and ran again elsewhere (idempotent tools). */
  rerun: number;
  /** Calls a stopped worker had not started, sent to another worker instead of failing. */
  recovered: number;
  /** Calls run in quarantine (alone, on a worker of their own). */
  quarantined: number;
}

export const DEFAULTS = {
  timeoutMs: 30_000,
  maxQueue: 100_000,
  concurrency: 64,
  abortGraceMs: 500,
  startTimeoutMs: 10_000,
  quarantineMs: 60_000,
  quarantineWorkers: 1,
};

/** The options with their defaults, checked. */
export interface PoolConfig {
  make: () => Worker;
  size: number;
  timeoutMs: number;
  maxToolTimeoutMs: number;
  maxQueue: number;
  concurrency: number;
  abortGraceMs: number;
  startTimeoutMs: number;
  quarantineMs: number;
  quarantineWorkers: number;
  network: NetworkPolicy;
  store: string | undefined;
  grants: Grants;
  limits: OutputLimits;
  /** Serves the store to workers that cannot open it (sealed ones); undefined for the others. */
  storeHost: PageStoreHost | undefined;
}

export function resolvePoolOptions(options: WorkerPoolOptions): PoolConfig {
  const worker = options?.worker;
  const sealed = typeof worker === 'string' || worker instanceof URL;
  if (typeof worker !== 'function' && !sealed) {
    throw new TypeError(
      `Expected \`worker\` to be the tools module's URL (sealed), or a function that makes a Worker (plain), got ${describeValue(worker)}`,
    );
  }
  const cores = typeof navigator !== 'undefined' && navigator.hardwareConcurrency ? navigator.hardwareConcurrency : 2;
  const network = options.network ?? 'deny';
  if (network !== 'allow' && network !== 'deny' && typeof network !== 'function') {
    throw new TypeError(`Expected \`network\` to be 'allow', 'deny' or a function, got ${describeValue(network)}`);
  }
  if (options.store !== undefined && (typeof options.store !== 'string' || options.store === '')) {
    throw new TypeError(`Expected \`store\` to be an IndexedDB database name, got ${describeValue(options.store)}`);
  }
  const timeoutMs = checkDuration('timeoutMs', options.timeoutMs ?? DEFAULTS.timeoutMs);
  const config = {
    size: checkCount('size', options.size ?? Math.max(1, cores - 1), { min: 1 }),
    timeoutMs,
    maxToolTimeoutMs: checkDuration('maxToolTimeoutMs', options.maxToolTimeoutMs ?? timeoutMs),
    maxQueue: checkCount('maxQueue', options.maxQueue ?? DEFAULTS.maxQueue, { infinite: true }),
    concurrency: checkCount('concurrency', options.concurrency ?? DEFAULTS.concurrency, { min: 1 }),
    abortGraceMs: checkDuration('abortGraceMs', options.abortGraceMs ?? DEFAULTS.abortGraceMs),
    startTimeoutMs: checkDuration('startTimeoutMs', options.startTimeoutMs ?? DEFAULTS.startTimeoutMs),
    quarantineMs: checkCount('quarantineMs', options.quarantineMs ?? DEFAULTS.quarantineMs),
    quarantineWorkers: checkCount('quarantineWorkers', options.quarantineWorkers ?? DEFAULTS.quarantineWorkers, {
      min: 1,
    }),
    network,
    store: options.store,
    grants: checkGrants(options.grants),
    limits: {
      maxResultSize: checkCount('maxResultSize', options.maxResultSize ?? OUTPUT_LIMITS.maxResultSize, {
        min: 1,
        infinite: true,
      }),
      maxProgressSize: checkCount('maxProgressSize', options.maxProgressSize ?? OUTPUT_LIMITS.maxProgressSize, {
        min: 1,
        infinite: true,
      }),
      maxTurnSize: checkCount('maxTurnSize', options.maxTurnSize ?? OUTPUT_LIMITS.maxTurnSize, {
        min: 1,
        infinite: true,
      }),
    },
  };
  // Made once every option is checked: a sealed pool starts reading its tools module now.
  return {
    ...config,
    make: sealed ? sealedWorkers(worker, network === 'deny') : worker,
    storeHost: sealed && options.store !== undefined ? new PageStoreHost(options.store) : undefined,
  };
}

/**
 * Types only: a pool typed by the tools its worker module serves. The module exports its list,
 * the page imports only its type (nothing of the worker's code reaches the page):
 *
 *     // tools.worker.ts
 *     export const tools = [multiply, remember] as const;
 *     serveTools(tools);
 *     // the page
 *     import type { tools } from './tools.worker';
 *     const pool = createWorkerPool<typeof tools>({ worker: toolsUrl });
 *     const r = await pool.call({ id: 'c1', name: 'multiply', args: { a: 3, b: 12 } }); // checked
 *     resultValue(r); // number
 */

/** The tools of a worker module, as `typeof tools` (any list of `defineTool` results). */
// biome-ignore lint/suspicious/noExplicitAny: any tool's arguments and result
export type ToolSet = readonly ToolDefinition<string, any, any>[];

/** The names a set serves (any string for an untyped pool). */
export type ToolName<T extends ToolSet> = T[number]['name'];

type Definition<T extends ToolSet, N> = Extract<T[number], { readonly name: N }>;

/** What a call to tool `N` sends (any JSON object for an untyped pool). */
export type ToolArgs<T extends ToolSet, N extends string> = string extends N
  ? Record<string, unknown>
  : Definition<T, N> extends ToolDefinition<string, infer A, unknown>
    ? A
    : never;

/**
 * What tool `N`'s call gives back, as `resultValue` reads it (`unknown` for an untyped pool):
 * what `run` returned, read back from its JSON; the result of a `withUpdate`; the text of a
 * `withArtifact` (its artifact rides beside it) or of a `{ content: parts }` (its images and
 * files ride beside it); `''` (or `null` with `resultFormat: 'json'`)
 * for nothing.
 */
export type ToolOutput<T extends ToolSet, N extends string> = string extends N
  ? unknown
  : Definition<T, N> extends ToolDefinition<string, unknown, infer R>
    ? Returned<R>
    : never;

/** A returned value as it comes back (only plain JSON data passes the worker's check). */
type Returned<R> =
  R extends WithUpdate<infer Inner>
    ? Returned<Inner>
    : // A parts result's `type`s widen to string where `run`'s return type is inferred.
      R extends WithArtifact | { content: string; artifact: unknown } | { content: readonly { type: string }[] }
      ? string
      : // biome-ignore lint/suspicious/noConfusingVoidType: a run that returns nothing is typed void
        R extends undefined | void
        ? '' | null
        : R;

/** A call of one of the set's tools, its arguments checked against that tool's. */
export type TypedToolCall<T extends ToolSet, N extends ToolName<T> = ToolName<T>> = {
  id: string;
  name: N;
  args: ToolArgs<T, N>;
};

/**
 * What a tool call gave back, converted in the worker. Plain data. A typed pool's results carry
 * the tool's name and its result type (read the value with `resultValue`).
 */
export interface ToolResult<Name extends string = string, Output = unknown> {
  toolCallId: string;
  name: Name;
  /** The text for the model. */
  content: string;
  /** `'json'` when `content` is the JSON of a value (read it back with `resultValue`). */
  kind: 'text' | 'json';
  /** Structured data kept beside the text. */
  artifact?: unknown;
  /** State updates the tool asked for (`withUpdate(result, update)`). */
  update?: Record<string, unknown>;
  /** Images and files the tool gave beside its text (`{ content: parts }`), as base64. */
  media?: (ImagePart | FilePart)[];
  /** Types only, never set: what the tool returned, before it became `content`. */
  readonly '~output'?: Output;
}

/**
 * The value a tool returned: the JSON parsed back, or the text.
 *
 * @example const n = resultValue(await pool.call({ id: 'c1', name: 'multiply', args: { a: 3, b: 12 } })) // 36
 */
export function resultValue<Output>(result: ToolResult<string, Output>): Output {
  return result.kind === 'json' ? JSON.parse(result.content) : (result.content as Output);
}
