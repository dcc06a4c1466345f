/**
 * `createCodeSandbox()`: run model-written JavaScript sealed off the page (see frame.ts for the
 * seal), each run in a realm of its own (see prepare.ts for how a script's value is found), with
 * limits on time, output and result size, and with the app's tools callable as functions when a
 * run is given them.
 */
import { CodeError } from '../errors/code-error';
import { describeValue } from '../errors/moat-error';
import { checkCount, checkDuration, checkSignal } from '../errors/option-checks';
import { SandboxCrashedError } from '../errors/sandbox-crashed-error';
import { SandboxLimitError } from '../errors/sandbox-limit-error';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { readMessage } from '../frame/channel';
import { findNonJSON, isPlainObject, type JSONValue, MAX_JSON_DEPTH } from '../json/json-value';
import { CODE_FILE } from './code-file';
import { type RunWorker, SandboxFrame } from './frame';
import { type LogLevel, OUTCOME_SHAPES, type PageToSandbox, type RunOutcome } from './protocol';

export interface CodeSandboxOptions {
  /** A run's time limit. Default 5,000 ms. */
  timeoutMs?: number;
  /** Console output per run, in characters, at most. Default 1,000,000. */
  maxOutputChars?: number;
  /** The result's JSON text, in characters, at most. Default 1,000,000. */
  maxResultChars?: number;
  /** The script's text, at most. Default 200,000. */
  maxCodeChars?: number;
  /** How long a run's fresh worker (and, for the first run, the sealed frame) may take to start. Default 10,000 ms. */
  startTimeoutMs?: number;
}

export interface LogEntry {
  level: 'log' | 'info' | 'warn' | 'error' | 'debug';
  text: string;
}

/** Functions the script may call as `await tools.<name>(args)`. */
export interface SandboxTools {
  names: readonly string[];
  /**
   * Runs one call; what it resolves with is the script's result of the call (JSON data). The
   * signal aborts when the run ends (its calls still running are not waited for).
   */
  call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

export interface CodeRunOptions {
  signal?: AbortSignal;
  /** Each console line, as it is written. */
  onOutput?: (entry: LogEntry) => void;
  /** This run's time limit (the sandbox's when absent). */
  timeoutMs?: number;
  tools?: SandboxTools;
}

export interface CodeRunResult {
  /** The value of the last expression (or of `return`), as JSON data; undefined for none. */
  value: JSONValue | undefined;
  logs: LogEntry[];
  durationMs: number;
}

/** Tool calls one script may have running at once. */
const MAX_CALLS_IN_FLIGHT = 32;

/**
 * @example
 * const sandbox = createCodeSandbox({ timeoutMs: 5_000 });
 * const { value, logs } = await sandbox.run('const xs = [3, 1, 2]; xs.sort(); console.log(xs); xs.length');
 */
export function createCodeSandbox(options: CodeSandboxOptions = {}): CodeSandbox {
  return new CodeSandbox(options);
}

/**
 * Each run is a fresh worker (a realm of its own) in one sealed frame, started for that run and
 * stopped when it ends, its timers with it; runs wait for each other, so no two workers of a
 * sandbox are alive at once. Nothing a script does to its realm (globals, prototypes, the
 * runtime's messaging, timers) reaches another run: there is nothing shared to reach. The price
 * is a worker's start per run (docs/code-sandbox.md has the figures); a frame per run would
 * cost its process's start too.
 */
export class CodeSandbox {
  readonly #timeoutMs: number;
  readonly #maxOutput: number;
  readonly #maxResult: number;
  readonly #maxCode: number;
  readonly #startTimeoutMs: number;
  /** The text of each run's worker: the runtime's, loaded with the first run. */
  #runtime: Promise<string> | undefined;
  #frame: SandboxFrame | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;
  #prepare: Promise<typeof import('./prepare')> | undefined;

  /** `runtime`: the text of each run's worker; tests give a hostile stand-in, apps never do. */
  constructor(options: CodeSandboxOptions = {}, runtime?: string) {
    if (typeof options !== 'object' || options === null)
      throw new TypeError(`createCodeSandbox takes an options object, got ${describeValue(options)}`);
    this.#timeoutMs = checkDuration('timeoutMs', options.timeoutMs ?? 5_000);
    this.#maxOutput = checkCount('maxOutputChars', options.maxOutputChars ?? 1_000_000, { min: 1 });
    this.#maxResult = checkCount('maxResultChars', options.maxResultChars ?? 1_000_000, { min: 1 });
    this.#maxCode = checkCount('maxCodeChars', options.maxCodeChars ?? 200_000, { min: 1 });
    this.#startTimeoutMs = checkDuration('startTimeoutMs', options.startTimeoutMs ?? 10_000);
    if (runtime !== undefined) this.#runtime = Promise.resolve(runtime);
  }

  /** Start the sandbox's frame now rather than on the first run (a run still starts its own worker). */
  warm(): Promise<void> {
    return this.#queued(async () => {
      const { worker } = await this.#start();
      worker.stop();
    });
  }

  /**
   * Run a script in a fresh realm; runs wait for each other. Resolves with its value and console
   * output; rejects with `CodeError` (it does not parse, or threw: with the line),
   * `ToolTimeoutError`, `SandboxLimitError`, `SandboxCrashedError` (also when the sandbox's side
   * sends what the page cannot read), or the signal's reason.
   */
  run(code: string, options: CodeRunOptions = {}): Promise<CodeRunResult> {
    return this.#queued(() => this.#run(code, options));
  }

  /** Stop the run in progress (it fails with `SandboxCrashedError`) and remove the sandbox. */
  close(): void {
    this.#closed = true;
    this.#frame?.close();
    this.#frame = undefined;
  }

  #queued<T>(work: () => Promise<T>): Promise<T> {
    const result = this.#queue.then(work);
    this.#queue = result.catch(() => {});
    return result;
  }

  /** A fresh worker, in the frame (a new one if there is none, or it died). */
  async #start(): Promise<{ frame: SandboxFrame; worker: RunWorker }> {
    if (this.#closed) throw new TypeError('This code sandbox is closed');
    if (!this.#frame || this.#frame.closed) this.#frame = new SandboxFrame();
    const frame = this.#frame;
    this.#runtime ??= import('./runtime.ts?bundled-script').then((m) => m.default);
    return { frame, worker: await frame.start(await this.#runtime, this.#startTimeoutMs) };
  }

  async #run(code: string, options: CodeRunOptions): Promise<CodeRunResult> {
    if (typeof code !== 'string') throw new TypeError(`Expected the code to be a string, got ${describeValue(code)}`);
    if (typeof options !== 'object' || options === null)
      throw new TypeError(`Expected run options to be an object, got ${describeValue(options)}`);
    checkSignal(options.signal);
    const timeoutMs = options.timeoutMs === undefined ? this.#timeoutMs : checkDuration('timeoutMs', options.timeoutMs);
    if (code.length > this.#maxCode) throw new SandboxLimitError({ limit: 'code', max: this.#maxCode });
    options.signal?.throwIfAborted();
    this.#prepare ??= import('./prepare');
    const prepared = (await this.#prepare).prepareScript(code);
    const { frame, worker } = await this.#start();
    if (options.signal?.aborted || this.#closed) {
      worker.stop();
      options.signal?.throwIfAborted();
      throw new TypeError('This code sandbox is closed');
    }
    const started = performance.now();
    const logs: LogEntry[] = [];
    let outputChars = 0;
    const tools = options.tools;
    const calls = { inFlight: 0, ended: new AbortController() };
    return new Promise<CodeRunResult>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: { value: JSONValue | undefined } | { error: unknown }) => {
        if (settled) return;
        settled = true;
        calls.ended.abort(new DOMException('The script this call came from has ended', 'AbortError'));
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        frame.watch(false);
        // The run's realm goes with it: its timers, its calls, whatever it left behind.
        worker.stop();
        if ('error' in outcome) reject(outcome.error);
        else resolve({ value: outcome.value, logs, durationMs: performance.now() - started });
      };
      const fail = (error: unknown) => finish({ error });
      const unreadable = (why: string) =>
        fail(new SandboxCrashedError({ reason: `it sent a message the page cannot read: ${why}` }));
      const timer = setTimeout(
        () =>
          fail(
            new ToolTimeoutError({
              timeoutMs,
              message: `The script ran past its time limit of ${timeoutMs} ms (it was stopped)`,
            }),
          ),
        timeoutMs,
      );
      const onAbort = () => fail(options.signal?.reason);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      worker.onBroken = fail;
      frame.watch(true);
      worker.onMessage = (m) => {
        if (typeof m === 'string') return unreadable(m);
        switch (m.t) {
          case 'out':
            for (const entry of m.entries) {
              if (!isLogEntry(entry)) return unreadable("an 'out' entry that is not a { level, text } line");
              outputChars += entry.text.length + 1;
              if (outputChars > this.#maxOutput + 1)
                return fail(new SandboxLimitError({ limit: 'output', max: this.#maxOutput }));
              const line: LogEntry = { level: entry.level, text: entry.text };
              logs.push(line);
              if (options.onOutput) tell(options.onOutput, line);
            }
            return;
          case 'limit':
            return fail(new SandboxLimitError({ limit: 'output', max: this.#maxOutput }));
          case 'call':
            // The runtime makes functions of the run's tools only: another name is not its doing.
            if (!tools?.names.includes(m.name)) return unreadable('a call of a tool the run was not given');
            void this.#toolCall(worker.port, m, tools, calls);
            return;
          case 'ready':
            return unreadable("a second 'ready'");
        }
      };
      const script = { code: prepared, maxOutput: this.#maxOutput, tools: tools ? [...tools.names] : [] };
      worker.channel
        .request(
          (r) => r.run(script),
          (value) => readMessage(OUTCOME_SHAPES, value),
        )
        .then(
          (outcome) => {
            if (typeof outcome === 'string') return unreadable(outcome);
            if (outcome.t === 'fail') return fail(codeError(outcome));
            if (outcome.value === undefined) return finish({ value: undefined });
            if (outcome.value.length > this.#maxResult)
              return fail(new SandboxLimitError({ limit: 'result', max: this.#maxResult }));
            let value: JSONValue;
            try {
              value = JSON.parse(outcome.value) as JSONValue;
            } catch {
              return unreadable("a 'done' whose value is not JSON text");
            }
            // The runtime's own converter overflows its stack long before this depth; JSON this
            // deep would overflow the stack of whatever reads it next on the page.
            if (findNonJSON(value)) return unreadable(`a result nested deeper than ${MAX_JSON_DEPTH} levels`);
            return finish({ value });
          },
          // Its run refused (a runtime never does), or the run already ended (its worker stopped).
          (error: Error) => unreadable(`a refusal of its run (${String(error?.message).slice(0, 200)})`),
        );
    });
  }

  /** A script's call of one of its tools, answered on the port (a failure becomes an error in the script). */
  async #toolCall(
    port: MessagePort,
    m: { call: number; name: string; args: string },
    tools: SandboxTools,
    calls: { inFlight: number; ended: AbortController },
  ): Promise<void> {
    let reply: PageToSandbox;
    calls.inFlight++;
    try {
      if (calls.inFlight > MAX_CALLS_IN_FLIGHT)
        throw new RangeError(`A script may have ${MAX_CALLS_IN_FLIGHT} tool calls running at once`);
      if (m.args.length > this.#maxResult) throw new TypeError('The arguments are not JSON text of an acceptable size');
      const args = JSON.parse(m.args) as unknown;
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        throw new TypeError(`tools.${m.name} takes an object of arguments, got ${describeValue(args)}`);
      const value = await tools.call(m.name, args as Record<string, unknown>, calls.ended.signal);
      const text = value === undefined ? undefined : JSON.stringify(value);
      reply =
        text === undefined
          ? { t: 'reply', call: m.call, ok: true }
          : { t: 'reply', call: m.call, ok: true, value: text };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      reply = { t: 'reply', call: m.call, ok: false, name: e.name, message: e.message };
    } finally {
      calls.inFlight--;
    }
    if (!calls.ended.signal.aborted) port.postMessage(reply);
  }
}

/** What the script threw, with the line it came from (the first stack frame in the code). */
function codeError(m: Extract<RunOutcome, { t: 'fail' }>): CodeError {
  // Cut before reading: the runtime sends at most 4,000 characters of stack, a tampered one more.
  const stack = (m.stack ?? '').slice(0, 4_000);
  const at = new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack);
  return new CodeError({
    errorName: m.name === undefined ? 'Error' : m.name.slice(0, 100),
    detail: m.message === undefined ? 'the script failed' : m.message.slice(0, 2_000),
    line: at ? Number(at[1]) : undefined,
    column: at ? Number(at[2]) : undefined,
  });
}

/**
 * Call the caller's callback. What it throws is reported as uncaught, a microtask later, rather
 * than let loose in the run's message handling (the rest of its lines would be lost).
 */
function tell<A>(callback: (arg: A) => void, arg: A): void {
  try {
    callback(arg);
  } catch (error) {
    queueMicrotask(() => {
      throw error;
    });
  }
}

const LEVELS: ReadonlySet<unknown> = new Set<LogLevel>(['log', 'info', 'warn', 'error', 'debug']);

/** One entry of an `out` message: exactly `{ level, text }`. */
function isLogEntry(entry: unknown): entry is { level: LogLevel; text: string } {
  return (
    isPlainObject(entry) && Object.keys(entry).length === 2 && LEVELS.has(entry.level) && typeof entry.text === 'string'
  );
}
