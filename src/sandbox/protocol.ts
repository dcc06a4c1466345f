/**
 * The wire contract between the code sandbox (page) and one run's worker (runtime.ts). Reading
 * this file tells the whole protocol.
 *
 * A run has a worker of its own and a MessageChannel of its own: the worker says `ready` once it
 * holds its end, the page sends one `run`, and the worker answers with console output, tool
 * calls, and last `done` or `fail`. No message names a run: the channel is the run's, and it is
 * closed (the worker stopped) when the run ends. Everything the worker sends is read as hostile
 * (the script shares its realm): `readSandboxMessage` checks each message's shape, and the page
 * checks sizes against its own limits before using anything.
 */
import { isPlainObject } from '../json/json-value';

export type LogLevel = 'log' | 'info' | 'warn' | 'error' | 'debug';

export type PageToSandbox =
  /** The one script of this worker (prepared: see prepare.ts), its output budget, its tools' names. */
  | { t: 'run'; code: string; maxOutput: number; tools: string[] }
  /** The answer to a `call`: its result as JSON text (none for undefined), or what the script should throw. */
  | { t: 'reply'; call: number; ok: true; value?: string }
  | { t: 'reply'; call: number; ok: false; name: string; message: string };

export type SandboxToPage =
  /** The worker holds its end of the channel; nothing has run in it. */
  | { t: 'ready' }
  /** Console lines, in order (batched within a tick). */
  | { t: 'out'; entries: unknown[] }
  /** The script's console went over its budget. */
  | { t: 'limit' }
  /** The script's value as JSON text (none for undefined). */
  | { t: 'done'; value?: string | undefined }
  /** What the script threw. */
  | { t: 'fail'; name?: string | undefined; message?: string | undefined; stack?: string | undefined }
  /** `await tools.<name>(args)`: the arguments as JSON text; answered with a `reply` of the same `call`. */
  | { t: 'call'; call: number; name: string; args: string };

/** Each message's keys, and the type of each (`?` marks one that may be absent or undefined). */
const SHAPES: Record<SandboxToPage['t'], Record<string, string>> = {
  ready: {},
  out: { entries: 'array' },
  limit: {},
  done: { value: 'string?' },
  fail: { name: 'string?', message: 'string?', stack: 'string?' },
  call: { call: 'integer', name: 'string', args: 'string' },
};

/**
 * `data` as a message of the protocol, or a sentence saying why it is not one (for the error the
 * run ends with). Shapes only: a plain object, a known tag, no key more, each of the right type.
 */
export function readSandboxMessage(data: unknown): SandboxToPage | string {
  if (!isPlainObject(data)) return `a message that is not an object (${kindOf(data)})`;
  const tag = data.t;
  if (typeof tag !== 'string' || !Object.hasOwn(SHAPES, tag)) return 'a message of no known type';
  const shape = SHAPES[tag as SandboxToPage['t']];
  for (const key of Object.keys(data)) {
    if (key === 't') continue;
    const type = shape[key];
    if (type === undefined) return `${article(tag)} '${tag}' message with a key it does not have`;
    const value = data[key];
    const ok =
      type === 'array'
        ? Array.isArray(value)
        : type === 'integer'
          ? Number.isSafeInteger(value)
          : typeof value === 'string' || (type === 'string?' && value === undefined);
    if (!ok) return `${article(tag)} '${tag}' message whose ${key} is not ${article(type)} ${type.replace('?', '')}`;
  }
  for (const [key, type] of Object.entries(shape))
    if (!type.endsWith('?') && !Object.hasOwn(data, key)) return `${article(tag)} '${tag}' message without its ${key}`;
  return data as SandboxToPage;
}

const LEVELS: ReadonlySet<unknown> = new Set(['log', 'info', 'warn', 'error', 'debug']);

/** One entry of an `out` message: exactly `{ level, text }`. */
export function isLogEntry(entry: unknown): entry is { level: LogLevel; text: string } {
  return (
    isPlainObject(entry) && Object.keys(entry).length === 2 && LEVELS.has(entry.level) && typeof entry.text === 'string'
  );
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return Object.prototype.toString.call(value).slice(8, -1);
  return typeof value;
}
