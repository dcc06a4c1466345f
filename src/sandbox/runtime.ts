/**
 * What runs inside a run's worker (one worker per run: see code-sandbox.ts). It reaches the frame
 * as a classic script's text (`./runtime.ts?bundled-script`, with the sealed end it imports) and
 * is evaluated before the script, so it takes what it needs from the realm first: the script
 * could replace any global later. It serves the page on the port it is given (protocol.ts): the
 * one `run` evaluates a prepared script (see prepare.ts) and answers with what it came to;
 * `console.*` becomes `out` messages; `tools.<name>(args)` becomes a `call`, a question the page
 * answers with a `reply`. The page's request is answered by the sealed end (`answerPage`), not
 * Comlink's `expose`, whose path walking and promise handling the script could subvert. A script
 * that tampers with this realm reaches only its own run, whose every message the page checks.
 */
import type { SerializedError } from '../errors/serialize-error';
import { answerPage, PageAsks } from '../frame/sealed-end';
import type { PageToSandbox, RunOutcome, RunScript, SandboxApi, SandboxToPage } from './protocol';

const scope = self as unknown as {
  onmessage: ((e: MessageEvent) => void) | null;
  console: unknown;
  tools: unknown;
  Worker?: unknown;
  SharedWorker?: unknown;
};
const { apply, construct } = Reflect;
const stringify = JSON.stringify;
const parseJSON = JSON.parse;
// biome-ignore lint/security/noGlobalEval: running the script is this sandbox's purpose (the seal is around it)
const evaluate = eval;
const portPost = MessagePort.prototype.postMessage;
// The page's messages are read through the getters the realm started with: a script that
// replaced `MessageEvent.prototype.data` would otherwise be handed each event, and its port.
const dataOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'data')?.get as (this: MessageEvent) => unknown;
const portsOf = Object.getOwnPropertyDescriptor(MessageEvent.prototype, 'ports')?.get as (
  this: MessageEvent,
) => readonly MessagePort[];
const then = Promise.prototype.then;
const tagOf = Object.prototype.toString;
const isArray = Array.isArray;
const keys = Object.keys;
const freeze = Object.freeze;
const hasOwn = Object.hasOwn;
const PromiseCtor = Promise;
const ErrorCtor = Error;
const MAX_BATCH = 16_384;

let port: MessagePort | undefined;
let started = false;
let outBudget = 0;
let batch: { level: string; text: string }[] = [];
let batchChars = 0;
let flushQueued = false;

const post = (message: SandboxToPage | object) => {
  if (port) apply(portPost, port, [message]);
};

// Nested workers would share this seal, but they are no use to a script: take them away.
scope.Worker = undefined;
scope.SharedWorker = undefined;

/** Node-style text for console output: strings as they are, the rest inspected (depth 2). */
const inspect = (value: unknown, depth: number, seen: unknown[]): string => {
  if (typeof value === 'string') return depth === 0 ? value : `'${value}'`;
  if (typeof value === 'bigint') return `${value}n`;
  if (typeof value === 'symbol') return value.toString();
  if (typeof value === 'function') return `[Function: ${value.name || '(anonymous)'}]`;
  if (value === null || typeof value !== 'object') return String(value);
  if (seen.includes(value)) return '[Circular]';
  if (value instanceof Error) return value.stack?.split('\n')[0] ?? `${value.name}: ${value.message}`;
  if (value instanceof Date) return value.toISOString();
  if (depth > 2) return isArray(value) ? '[Array]' : '[Object]';
  const inner = [...seen, value];
  const show = (v: unknown) => inspect(v, depth + 1, inner);
  if (isArray(value))
    return value.length === 0
      ? '[]'
      : `[ ${value.slice(0, 100).map(show).join(', ')}${value.length > 100 ? ', …' : ''} ]`;
  if (value instanceof Map)
    return `Map(${value.size}) { ${[...value]
      .slice(0, 100)
      .map(([k, v]) => `${show(k)} => ${show(v)}`)
      .join(', ')} }`;
  if (value instanceof Set) return `Set(${value.size}) { ${[...value].slice(0, 100).map(show).join(', ')} }`;
  const names = keys(value);
  if (names.length === 0) return apply(tagOf, value, []) === '[object Object]' ? '{}' : apply(tagOf, value, []);
  return `{ ${names
    .slice(0, 100)
    .map((k) => `${/^[A-Za-z_$][\w$]*$/.test(k) ? k : `'${k}'`}: ${show((value as Record<string, unknown>)[k])}`)
    .join(', ')} }`;
};

/** A value as JSON text; what JSON cannot hold is described (a string saying what it was). */
const toJSONText = (value: unknown): string | undefined => {
  const seen: unknown[] = [];
  const convert = (v: unknown): unknown => {
    if (v === undefined) return undefined;
    if (v === null || typeof v === 'boolean' || typeof v === 'string') return v;
    if (typeof v === 'number') return Number.isFinite(v) ? v : String(v);
    if (typeof v === 'bigint') return `${v}n`;
    if (typeof v === 'function' || typeof v === 'symbol') return inspect(v, 1, []);
    if (seen.includes(v)) return '[Circular]';
    if (v instanceof Date) return Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString();
    if (v instanceof Error) return { name: v.name, message: v.message };
    seen.push(v);
    try {
      if (isArray(v) || ArrayBuffer.isView(v))
        return [...(v as ArrayLike<unknown> & Iterable<unknown>)].map((x) => convert(x) ?? null);
      if (v instanceof Map) return [...v].map(([k, x]) => [convert(k) ?? null, convert(x) ?? null]);
      if (v instanceof Set) return [...v].map((x) => convert(x) ?? null);
      const out: Record<string, unknown> = {};
      for (const k of keys(v as object)) {
        const x = convert((v as Record<string, unknown>)[k]);
        if (x !== undefined) out[k] = x;
      }
      return out;
    } finally {
      seen.pop();
    }
  };
  const converted = convert(value);
  return converted === undefined ? undefined : stringify(converted);
};

const flush = () => {
  flushQueued = false;
  if (batch.length === 0) return;
  post({ t: 'out', entries: batch });
  batch = [];
  batchChars = 0;
};
const log =
  (level: string) =>
  (...args: unknown[]) => {
    if (outBudget <= 0) return;
    let text = args.map((a) => inspect(a, 0, [])).join(' ');
    if (text.length > outBudget) text = text.slice(0, outBudget);
    outBudget -= text.length + 1;
    batch.push({ level, text });
    batchChars += text.length;
    if (outBudget <= 0) {
      flush();
      post({ t: 'limit' });
    } else if (batchChars >= MAX_BATCH) flush();
    else if (!flushQueued) {
      flushQueued = true;
      queueMicrotask(flush);
    }
  };
scope.console = freeze({
  log: log('log'),
  info: log('info'),
  warn: log('warn'),
  error: log('error'),
  debug: log('debug'),
  trace: log('debug'),
  table: log('log'),
  dir: log('log'),
});

/** The script's tool calls: questions to the page, each answered by a `reply` of its id. */
const asks = new PageAsks<{ name: string; args: string }>(
  (call, { name, args }) => post({ t: 'call', call, name, args }),
  ({ name, message }) => {
    const error = new ErrorCtor(message);
    error.name = name;
    return error;
  },
);

const makeTools = (names: string[]) => {
  const tools: Record<string, (args?: unknown) => Promise<unknown>> = {};
  for (const name of names) {
    tools[name] = (args = {}) => {
      let text: string | undefined;
      try {
        text = toJSONText(args);
      } catch (error) {
        return construct(PromiseCtor, [(_: unknown, reject: (e: unknown) => void) => reject(error)]);
      }
      flush();
      return asks.ask({ name, args: text ?? '{}' });
    };
  }
  return freeze(tools);
};

/** What the script threw, as the page reads it. */
const failure = (error: unknown): RunOutcome => {
  const e = error as { name?: unknown; message?: unknown; stack?: unknown } | null;
  const isError = typeof e === 'object' && e !== null;
  return {
    t: 'fail',
    name: isError && typeof e.name === 'string' ? e.name : 'Error',
    message: isError && typeof e.message === 'string' ? e.message : `Uncaught ${inspect(error, 1, [])}`,
    stack: isError && typeof e.stack === 'string' ? e.stack.slice(0, 4_000) : '',
  };
};

const api: SandboxApi = {
  run({ code, maxOutput, tools }: RunScript) {
    return construct(PromiseCtor, [
      (resolve: (outcome: RunOutcome) => void) => {
        if (started) return resolve({ t: 'fail', name: 'Error', message: 'This worker has run its script already' });
        started = true;
        outBudget = maxOutput;
        scope.tools = makeTools(tools);
        let result: Promise<unknown>;
        try {
          result = construct(PromiseCtor, [(settle: (v: unknown) => void) => settle(evaluate(code))]);
        } catch (error) {
          resolve(failure(error));
          return;
        }
        apply(then, result, [
          (value: unknown) => {
            flush();
            let text: string | undefined;
            try {
              text = toJSONText(value);
            } catch (error) {
              resolve({ t: 'fail', name: 'Error', message: `The result could not be read: ${String(error)}` });
              return;
            }
            resolve({ t: 'done', value: text });
          },
          (error: unknown) => {
            flush();
            resolve(failure(error));
          },
        ]);
      },
    ]) as Promise<RunOutcome>;
  },
};

/** What answerPage sends back for a request it refuses (its own errors: `run` never throws). */
const serialize = (error: unknown): SerializedError => ({
  $error: 1,
  name: 'TypeError',
  message: error instanceof ErrorCtor ? error.message : 'The request failed',
});

const answer = answerPage(api, post, serialize);

const onMessage = (event: MessageEvent) => {
  const m = apply(dataOf, event, []) as PageToSandbox | null;
  if (typeof m !== 'object' || m === null || !hasOwn(m, 't') || m.t !== 'reply') return answer(m);
  asks.answer(
    m.call,
    m.ok
      ? { value: m.value === undefined ? undefined : parseJSON(m.value) }
      : { error: { $error: 1, name: m.name, message: m.message } },
  );
};

scope.onmessage = (event: MessageEvent) => {
  const given = apply(portsOf, event, [])[0];
  if (port || !given) return;
  port = given;
  port.onmessage = onMessage;
  scope.onmessage = null;
  post({ t: 'ready' });
};
