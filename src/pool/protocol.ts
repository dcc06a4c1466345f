/**
 * The wire contract between the pool (page) and a tool worker. Reading this file tells the whole
 * protocol. Types only (and the version), as comlink's own protocol.ts: `worker/` imports it.
 *
 * One channel per worker carries everything: the worker's own (`postMessage` on the `Worker`, or
 * on the port a sealed frame hands over). Two directions, two kinds of message:
 *
 * - page → worker: requests, by Comlink. The worker serves `ToolWorkerApi`; the page `wrap`s it
 *   (`src/frame/channel.ts`). First `configure` (the policy, taken before anything runs; answered
 *   `Ready`), then `describe`, `calls` (one batch per worker per tick, started in the order
 *   received), `cancel`, `answer` (to a network question) and `stop`, whose answer is the exact
 *   count of calls the worker started.
 * - worker → page: Comlink's answers, and what the worker says unasked (`WorkerToPage`): `out`,
 *   the results, errors and deltas of calls with the count of calls started (what decides that a
 *   call never started runs elsewhere and none runs twice, which a promise per call would not
 *   say); `net?`, a network question; `fatal`, its last word. The page checks each against its
 *   table of shapes (`WORKER_MESSAGES`) and then each field before use: the worker is hostile.
 *
 * The page exposes nothing to a worker and hands it no `Comlink.proxy`: Comlink walks whatever
 * path a message names on what it exposes, and a hostile worker that sent
 * `{ type: 'CONSTRUCT', path: ['constructor'] }` to a proxied callback built `Function` in the
 * page's realm. So what the worker tells the page goes by the unasked messages, never by a
 * callback the page lends it.
 */
import type { SerializedError } from '../errors/serialize-error';
import type { Shapes } from '../frame/channel';
import type { FilePart, ImagePart } from '../messages/types';
import type { ToolSpec } from '../providers/tool-spec';

export const PROTOCOL_VERSION = 4;

/** What the pool knows of a tool beyond its spec. */
export interface ToolDescriptor {
  spec: ToolSpec;
  /** The part of the caller's state the tool receives: all of it, or one field. */
  state?: { whole: true } | { field: string };
  /** The store namespaces (prefixes) the tool may touch. */
  store?: { namespaces: string[][] };
  /** Safe to run again: a call cut off by another call's fault is re-run once. */
  idempotent?: true;
}

/**
 * The network policy as the worker enforces it. `'ask'`: each request's URL is put to the page
 * by message (`net?`), which answers from the pool's `network` function; only APIs that can wait
 * for an answer (fetch-like ones) can be asked about.
 */
export type NetworkPolicyWire = { mode: 'allow' } | { mode: 'deny' } | { mode: 'ask' };

export interface WorkerConfig {
  network: NetworkPolicyWire;
  /**
   * The IndexedDB database tools get as `runtime.store` (the page opens the same one). With
   * `port`, the worker has no IndexedDB (a framed worker): the page serves the store on it.
   */
  store?: { name: string; port?: MessagePort };
}

/**
 * The answer to `describe`: the tools' descriptors (JSON Schemas are built on the first request,
 * not at start-up), or the error that prevented them, serialized so that it keeps its class on
 * the page.
 */
export type DescribeAnswer = { descriptors: ToolDescriptor[] } | { error: SerializedError };

/** How a non-string result becomes the text the model sees. */
export type ResultFormat = 'string' | 'json';

export interface CallRequest {
  /** The pool's id for the call, unique within the pool. */
  id: number;
  toolCallId: string;
  name: string;
  args: Record<string, unknown>;
  /** The caller's state (the worker hands the tool the part it declared). */
  state?: unknown;
  context?: unknown;
  resultFormat?: ResultFormat;
}

/**
 * What a worker has for the page since it last posted: results, errors and deltas, in the order
 * they came. A result is never lost with a worker that a later call blocks: the worker posts what
 * it has (and its started count) before it starts another call, and the page then knows every
 * call it started except, at most, the last (which it takes as started: no call runs twice).
 */
export type OutEntry = { id: number } & ({ result: CallResult } | { error: SerializedError } | { delta: unknown });

/** The answer to `configure`: the tools served (their specs come from `describe`), which are idempotent, the time limits tools declare. */
export interface Ready {
  version: number;
  names: string[];
  idempotent: string[];
  timeouts?: Record<string, number>;
}

/**
 * What a tool worker serves the page. Each method's answer goes back as Comlink's; what it throws
 * goes back serialized (and is revived on the page into its class). `calls`, `cancel` and
 * `answer` are one-way: not answered (their outcome comes in `out`), so a batch of calls is one
 * message each way, as the storm and the round trip need.
 */
export interface ToolWorkerApi {
  /** First, always: the policy the worker enforces before anything runs. */
  configure(config: WorkerConfig): Ready;
  /** The tools' descriptors, built on the first request. */
  describe(): DescribeAnswer;
  /**
   * Start these calls, in this order (those sent in one tick come in one batch). Their results
   * come back in `out` messages; the answer itself says nothing.
   */
  calls(calls: CallRequest[]): void;
  /** Abort these calls' `runtime.signal`. */
  cancel(ids: number[]): void;
  /** The page's answer to the network question `ask` (`net?`). */
  answer(ask: number, allow: boolean): void;
  /**
   * The page is about to stop the worker: start nothing more, post what is done, and answer with
   * the exact started count. A worker stuck in a call never answers; the page then goes by the
   * counts it has.
   */
  stop(): { started: number };
}

/** A successful result, converted in the worker. */
export interface CallResult {
  /** The text for the model: the tool's string, or the JSON of its value. */
  content: string;
  /** `'json'` when `content` is the JSON of a value (the page can parse it back lazily). */
  kind: 'text' | 'json';
  /** Structured data kept beside the text (`{ content, artifact }` results). */
  artifact?: unknown;
  /** State updates (`withUpdate(result, update)`). */
  update?: Record<string, unknown>;
  /** Images and files beside the text (`{ content: parts }` results), as base64. */
  media?: (ImagePart | FilePart)[];
}

export type WorkerToPage =
  /** What calls produced, and how many calls the worker has started (in the order received). */
  | { t: 'out'; started: number; out: OutEntry[] }
  /** May this URL be reached? (`'ask'`, answered by `answer`) */
  | { t: 'net?'; ask: number; url: string; api: string }
  /** The worker is going away (`self.close()`, an uncaught error): its calls will not finish. */
  | { t: 'fatal'; reason: string; started: number };

/**
 * The shape of each unasked message, checked on the page before anything else is read. A dying
 * worker's `fatal` is read leniently (a reason that is not a string is "it stopped"; a count that
 * is not one, all calls sent): its last word still accounts for its calls.
 */
export const WORKER_MESSAGES = {
  out: { started: 'count', out: 'array' },
  'net?': { ask: 'integer', url: 'string', api: 'string' },
  fatal: { reason: 'any?', started: 'any?' },
} as const satisfies Shapes<WorkerToPage>;
