/**
 * The wire contract between the code sandbox (page) and one run's worker (runtime.ts). Reading
 * this file tells the whole protocol.
 *
 * A run has a worker of its own and a MessageChannel of its own, the page's side a channel of
 * src/frame/channel.ts. What crosses, in which direction:
 *
 * - page → worker: one request, `run` (`SandboxApi`), a Comlink call the page makes through
 *   `wrap`; the worker answers it with what the script came to (`RunOutcome`). The run is stopped
 *   by ending its worker, not by asking it.
 * - worker → page, unasked (`SandboxToPage`, each checked against `SANDBOX_SHAPES`): `ready` once
 *   it holds its end, console output, the console's limit, and the script's tool calls.
 * - page → worker: the answer to each tool call (`reply`): an answer to the worker's question, not
 *   something the page serves. The page exposes nothing: a script that took its realm over could
 *   walk whatever the page exposed (`constructor.constructor` is the page's `Function`).
 *
 * No message names a run: the channel is the run's, and it is closed (the worker stopped) when
 * the run ends. Everything the worker sends is read as hostile (the script shares its realm):
 * each message's shape is checked, and the page checks sizes against its own limits before using
 * anything.
 */
import type { Shapes } from '../frame/channel';

export type LogLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

/** The one script of a run's worker (prepared: see prepare.ts), its output budget, its tools' names. */
export interface RunScript {
  code: string;
  maxOutput: number;
  tools: string[];
}

/** What a run's worker serves the page (runtime.ts); the page asks it through `connect`. */
export interface SandboxApi {
  /** Run the script (once per worker); answers when it has settled, its console output sent before. */
  run(script: RunScript): Promise<RunOutcome>;
}

/** What the script came to: its value as JSON text (none for undefined), or what it threw. */
export type RunOutcome =
  | { t: 'done'; value?: string | undefined }
  | { t: 'fail'; name?: string | undefined; message?: string | undefined; stack?: string | undefined };

export const OUTCOME_SHAPES: Shapes<RunOutcome> = {
  done: { value: 'string?' },
  fail: { name: 'string?', message: 'string?', stack: 'string?' },
};

export type SandboxToPage =
  /** The worker holds its end of the channel; nothing has run in it. */
  | { t: 'ready' }
  /** Console lines, in order (batched within a tick). */
  | { t: 'out'; entries: unknown[] }
  /** The script's console went over its budget. */
  | { t: 'limit' }
  /** `await tools.<name>(args)`: the arguments as JSON text; answered with a `reply` of the same `call`. */
  | { t: 'call'; call: number; name: string; args: string };

/** Each unasked message's keys, and the type of each. */
export const SANDBOX_SHAPES: Shapes<SandboxToPage> = {
  ready: {},
  out: { entries: 'array' },
  limit: {},
  call: { call: 'integer', name: 'string', args: 'string' },
};

/** The page's answer to a `call`: its result as JSON text (none for undefined), or what the script should throw. */
export type PageToSandbox =
  | { t: 'reply'; call: number; ok: true; value?: string }
  | { t: 'reply'; call: number; ok: false; name: string; message: string };
