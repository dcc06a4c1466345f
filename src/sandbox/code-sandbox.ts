/**
 * `createCodeSandbox()`: run model-written JavaScript sealed off the page (see frame.ts for the
 * seal), as a REPL (see prepare.ts), with limits on time, output and result size, and with the
 * app's tools callable as functions when a run is given them.
 */
import { CodeError } from '../errors/code-error';
import { describeValue } from '../errors/moat-error';
import { checkCount, checkDuration, checkSignal } from '../errors/option-checks';
import { SandboxLimitError } from '../errors/sandbox-limit-error';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import type { JSONValue } from '../json/json-value';
import { CODE_FILE } from './code-file';
import { SandboxFrame } from './frame';

export interface CodeSandboxOptions {
  /** A run's time limit. Default 5,000 ms. */
  timeoutMs?: number;
  /** Console output per run, in characters, at most. Default 1,000,000. */
  maxOutputChars?: number;
  /** The result's JSON text, in characters, at most. Default 1,000,000. */
  maxResultChars?: number;
  /** The script's text, at most. Default 200,000. */
  maxCodeChars?: number;
  /** How long a new sandbox may take to start. Default 10,000 ms. */
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

const LEVELS = new Set(['log', 'info', 'warn', 'error', 'debug']);

/**
 * @example
 * const sandbox = createCodeSandbox({ timeoutMs: 5_000 });
 * const { value, logs } = await sandbox.run('const xs = [3, 1, 2]; xs.sort(); console.log(xs); xs.length');
 */
export function createCodeSandbox(options: CodeSandboxOptions = {}): CodeSandbox {
  return new CodeSandbox(options);
}

export class CodeSandbox {
  readonly #timeoutMs: number;
  readonly #maxOutput: number;
  readonly #maxResult: number;
  readonly #maxCode: number;
  readonly #startTimeoutMs: number;
  #frame: SandboxFrame | undefined;
  #queue: Promise<unknown> = Promise.resolve();
  #runs = 0;
  #closed = false;
  #prepare: Promise<typeof import('./prepare')> | undefined;

  constructor(options: CodeSandboxOptions = {}) {
    if (typeof options !== 'object' || options === null)
      throw new TypeError(`createCodeSandbox takes an options object, got ${describeValue(options)}`);
    this.#timeoutMs = checkDuration('timeoutMs', options.timeoutMs ?? 5_000);
    this.#maxOutput = checkCount('maxOutputChars', options.maxOutputChars ?? 1_000_000, { min: 1 });
    this.#maxResult = checkCount('maxResultChars', options.maxResultChars ?? 1_000_000, { min: 1 });
    this.#maxCode = checkCount('maxCodeChars', options.maxCodeChars ?? 200_000, { min: 1 });
    this.#startTimeoutMs = checkDuration('startTimeoutMs', options.startTimeoutMs ?? 10_000);
  }

  /** Start the sandbox now rather than on the first run. */
  async warm(): Promise<void> {
    await this.#ready();
  }

  /**
   * Run a script; runs wait for each other. Resolves with its value and console output; rejects
   * with `CodeError` (it does not parse, or threw: with the line), `ToolTimeoutError`,
   * `SandboxLimitError`, `SandboxCrashedError`, or the signal's reason. After a timeout, an
   * abort, a limit or a crash the sandbox is replaced: its globals are gone.
   */
  run(code: string, options: CodeRunOptions = {}): Promise<CodeRunResult> {
    const result = this.#queue.then(() => this.#run(code, options));
    this.#queue = result.catch(() => {});
    return result;
  }

  /** Fresh globals: the sandbox is replaced (after the runs already asked for). */
  reset(): Promise<void> {
    const done = this.#queue.then(() => {
      this.#frame?.close();
      this.#frame = undefined;
    });
    this.#queue = done;
    return done;
  }

  close(): void {
    this.#closed = true;
    this.#frame?.close();
    this.#frame = undefined;
  }

  async #ready(): Promise<SandboxFrame> {
    if (this.#closed) throw new TypeError('This code sandbox is closed');
    if (!this.#frame || this.#frame.closed) this.#frame = new SandboxFrame(this.#startTimeoutMs);
    const frame = this.#frame;
    try {
      await frame.ready;
    } catch (error) {
      if (this.#frame === frame) this.#frame = undefined;
      throw error;
    }
    return frame;
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
    const frame = await this.#ready();
    options.signal?.throwIfAborted();
    const started = performance.now();
    const run = ++this.#runs;
    const logs: LogEntry[] = [];
    let outputChars = 0;
    const tools = options.tools;
    const calls = { inFlight: 0, ended: new AbortController() };
    return new Promise<CodeRunResult>((resolve, reject) => {
      let settled = false;
      const finish = (outcome: { value: JSONValue | undefined } | { error: unknown }, keep: boolean) => {
        if (settled) return;
        settled = true;
        calls.ended.abort(new DOMException('The script this call came from has ended', 'AbortError'));
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        frame.watch(false);
        frame.onDeath = undefined;
        frame.port.onmessage = null;
        if (!keep) {
          frame.close();
          if (this.#frame === frame) this.#frame = undefined;
        }
        if ('error' in outcome) reject(outcome.error);
        else resolve({ value: outcome.value, logs, durationMs: performance.now() - started });
      };
      const timer = setTimeout(
        () =>
          finish(
            {
              error: new ToolTimeoutError({
                timeoutMs,
                message: `The script ran past its time limit of ${timeoutMs} ms (the sandbox was replaced)`,
              }),
            },
            false,
          ),
        timeoutMs,
      );
      const onAbort = () => finish({ error: options.signal?.reason }, false);
      options.signal?.addEventListener('abort', onAbort, { once: true });
      frame.onDeath = (error) => finish({ error }, false);
      frame.watch(true);
      frame.port.onmessage = (event: MessageEvent) => {
        const m = event.data as Record<string, unknown> | null;
        if (typeof m !== 'object' || m === null || m.run !== run) return;
        if (m.t === 'out' && Array.isArray(m.entries)) {
          for (const entry of m.entries as unknown[]) {
            const { level, text } = (entry ?? {}) as { level?: unknown; text?: unknown };
            if (typeof text !== 'string' || !LEVELS.has(level as string)) continue;
            outputChars += text.length + 1;
            if (outputChars > this.#maxOutput + 1) {
              finish({ error: new SandboxLimitError({ limit: 'output', max: this.#maxOutput }) }, false);
              return;
            }
            const line = { level: level as LogEntry['level'], text };
            logs.push(line);
            options.onOutput?.(line);
          }
        } else if (m.t === 'limit') {
          finish({ error: new SandboxLimitError({ limit: 'output', max: this.#maxOutput }) }, false);
        } else if (m.t === 'done') {
          if (m.value === undefined) return finish({ value: undefined }, true);
          if (typeof m.value !== 'string') return;
          if (m.value.length > this.#maxResult)
            return finish({ error: new SandboxLimitError({ limit: 'result', max: this.#maxResult }) }, true);
          finish({ value: JSON.parse(m.value) as JSONValue }, true);
        } else if (m.t === 'fail') {
          finish({ error: codeError(m) }, true);
        } else if (m.t === 'call' && typeof m.call === 'number' && typeof m.name === 'string') {
          void this.#toolCall(frame, run, m.call, m.name, m.args, tools, calls);
        }
      };
      frame.port.postMessage({
        t: 'run',
        run,
        code: prepared,
        maxOutput: this.#maxOutput,
        tools: tools ? [...tools.names] : [],
      });
    });
  }

  /** A script's call of one of its tools, answered on the port (a failure becomes an error in the script). */
  async #toolCall(
    frame: SandboxFrame,
    run: number,
    id: number,
    name: string,
    argsText: unknown,
    tools: SandboxTools | undefined,
    calls: { inFlight: number; ended: AbortController },
  ): Promise<void> {
    let reply: Record<string, unknown>;
    calls.inFlight++;
    try {
      if (calls.inFlight > MAX_CALLS_IN_FLIGHT)
        throw new RangeError(`A script may have ${MAX_CALLS_IN_FLIGHT} tool calls running at once`);
      if (!tools?.names.includes(name)) throw new TypeError(`There is no tool '${name}'`);
      if (typeof argsText !== 'string' || argsText.length > this.#maxResult)
        throw new TypeError('The arguments are not JSON text of an acceptable size');
      const args = JSON.parse(argsText) as unknown;
      if (typeof args !== 'object' || args === null || Array.isArray(args))
        throw new TypeError(`tools.${name} takes an object of arguments, got ${describeValue(args)}`);
      const value = await tools.call(name, args as Record<string, unknown>, calls.ended.signal);
      const text = value === undefined ? undefined : JSON.stringify(value);
      reply = { t: 'reply', run, call: id, ok: true, value: text };
    } catch (error) {
      const e = error instanceof Error ? error : new Error(String(error));
      reply = { t: 'reply', run, call: id, ok: false, name: e.name, message: e.message };
    } finally {
      calls.inFlight--;
    }
    if (!calls.ended.signal.aborted && !frame.closed) frame.port.postMessage(reply);
  }
}

/** What the script threw, with the line it came from (the first stack frame in the code). */
function codeError(m: Record<string, unknown>): CodeError {
  const stack = typeof m.stack === 'string' ? m.stack : '';
  const at = new RegExp(`${CODE_FILE.replace('.', '\\.')}:(\\d+):(\\d+)`).exec(stack);
  return new CodeError({
    errorName: typeof m.name === 'string' ? m.name.slice(0, 100) : 'Error',
    detail: typeof m.message === 'string' ? m.message.slice(0, 2_000) : 'the script failed',
    line: at ? Number(at[1]) : undefined,
    column: at ? Number(at[2]) : undefined,
  });
}
