/**
 * The wire contract between the pool (page) and a tool worker. Reading this file tells the whole
 * protocol.
 *
 * One channel per worker carries everything: the worker's own (`postMessage` on the `Worker`, or
 * on the port a sealed frame hands over). The page's first message is `hello`, the worker's
 * configuration; the worker takes the policy before anything else and answers `ready`. Calls
 * follow at once: one `calls` message per worker per tick, an `out` message back with results,
 * errors and deltas. Every message is an object with a `t` tag, read in order. Not Comlink: the
 * page must know which calls a worker started (the count each `out` carries, the
 * `stop` answer), so that a call it never began runs elsewhere and none runs twice, which a
 * promise per call does not say; and Comlink's `expose` answers every message on its endpoint
 * (call batches too), so `describe` alone would need a filter on both sides or a second channel
 * per worker, as it once had, where one tagged request and its answer do.
 */
import type { SerializedError } from '../errors/serialize-error';
import type { FilePart, ImagePart } from '../messages/types';
import type { ToolSpec } from '../providers/tool-spec';

export const PROTOCOL_VERSION = 3;

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

export type PageToWorker =
  /** First message, always: the policy the worker enforces before anything runs. The worker answers `ready`. */
  | { t: 'hello'; config: WorkerConfig }
  /** Calls, started in this order: those sent in one tick go in one message. */
  | { t: 'calls'; calls: CallRequest[] }
  /** The tools' descriptors, please (answered with `described`, in the order asked). */
  | { t: 'describe' }
  /** Abort these calls' `runtime.signal`. */
  | { t: 'cancel'; ids: number[] }
  /** The answer to a `net?` question. */
  | { t: 'net'; ask: number; allow: boolean }
  /**
   * The page is about to stop the worker: start nothing more, post what is
   * done, and answer `stopped` with the exact started count. A worker stuck in a call never
   * answers; the page then goes by the counts it has.
   */
  | { t: 'stop' };

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
  /**
   * The answer to `hello`: serving these tools (their specs come from `describe`); which are
   * idempotent; the time limits tools declare.
   */
  | { t: 'ready'; version: number; names: string[]; idempotent: string[]; timeouts?: Record<string, number> }
  | ({ t: 'described' } & DescribeAnswer)
  /** May this URL be reached? (`'ask'`) */
  | { t: 'net?'; ask: number; url: string; api: string }
  /** The worker is going away (`self.close()`, an uncaught error): its calls will not finish. */
  | { t: 'fatal'; reason: string; started: number }
  /** The answer to `stop`: nothing more starts; `started` calls began, in the order received. */
  | { t: 'stopped'; started: number };
