/**
 * One MCP client worker in its sealed frame, as the page talks to it: a channel (src/frame/
 * channel.ts) over the frame's port, whose requests each have their signal, progress and time
 * limit, and the end of it all (the frame closed, every request still waiting failed with the
 * reason). Every answer and every message the worker sends is read before use (protocol.ts).
 */
import type { Remote } from 'comlink';
import { describeValue } from '../errors/moat-error';
import { type Channel, connect, readMessage, type Shapes } from '../frame/channel';
import type { SandboxedFrame } from '../frame/sandboxed-frame';
import { isPlainObject } from '../json/json-value';
import type { McpAnswers, McpClientApi, McpTool, McpToPage, WireFailure } from './protocol';

export interface Asking {
  signal?: AbortSignal;
  progress?: (delta: unknown) => void;
  /** The answer's time limit; running out ends the connection (it is not answering). */
  timeoutMs?: number;
  /** The error a failure answer becomes. */
  failure(failure: WireFailure): Error;
}

/** What the worker says unasked, and the keys of each (protocol.ts). */
const TOLD: Shapes<McpToPage> = {
  progress: { call: 'count', progress: 'any', total: 'any?', message: 'string?' },
  changed: {},
};

/** The answers' shapes; each answer is then read field by field (readAnswer). */
const ANSWERS: Shapes<McpAnswers> = {
  connected: {},
  tools: { tools: 'array' },
  result: { result: 'object' },
  closed: {},
  failed: { error: 'object' },
};

const REFUSED = Symbol('refused');

/** One client worker in its frame, and the requests waiting on it; ended once, for good. */
export class Connection {
  readonly #channel: Channel<McpClientApi>;
  readonly #frame: SandboxedFrame;
  /** The calls running, by the page's number: where their progress goes. */
  readonly #progress = new Map<number, (delta: unknown) => void>();
  /** The requests waiting, each to be failed in its own words when the worker breaks. */
  readonly #waiting = new Set<(failure: WireFailure) => Error>();
  #nextCall = 1;
  #ended: Error | undefined;
  onChanged = () => {};
  onEnded = () => {};

  constructor(port: MessagePort, frame: SandboxedFrame) {
    this.#frame = frame;
    this.#channel = connect<McpClientApi, McpToPage>(port, {
      shapes: TOLD,
      message: (message) => this.#told(message),
      malformed: (_, data) => this.#broken(readMessage(TOLD, data) as string),
    });
    port.start();
  }

  /** Connect the client to `url`; rejects with the failure, the time limit's, or the end. */
  async connect(url: string, headers: Record<string, string>, asking: Asking): Promise<void> {
    await this.#request((w) => w.connect(url, headers), 'connected', asking);
  }

  /** The server's tools. */
  async list(asking: Asking): Promise<McpTool[]> {
    return (await this.#request((w) => w.listTools(), 'tools', asking)).tools;
  }

  /** Call tool `name`; its progress goes to `asking.progress`, an abort cancels it on the server. */
  async call(name: string, args: Record<string, unknown>, asking: Asking): Promise<McpAnswers & { t: 'result' }> {
    const call = this.#nextCall++;
    const { signal, progress } = asking;
    const cancel = () => this.#channel.send((w) => w.cancel(call, reasonText(signal?.reason)));
    if (progress) this.#progress.set(call, progress);
    signal?.addEventListener('abort', cancel, { once: true });
    try {
      return await this.#request((w) => w.callTool(call, name, args), 'result', asking);
    } finally {
      this.#progress.delete(call);
      signal?.removeEventListener('abort', cancel);
    }
  }

  /** Every later request carries these headers (a fresh access token). */
  setHeaders(headers: Record<string, string>): void {
    if (!this.#ended) this.#channel.send((w) => w.setHeaders(headers));
  }

  /** Close the session (an HTTP DELETE where the server keeps one), waiting for it at most 2 s. */
  async close(): Promise<void> {
    if (this.#ended) return;
    await this.#channel
      .request(
        (w) => w.close(),
        () => undefined,
        { timeoutMs: 2_000 },
      )
      .catch(() => {});
  }

  /** Its frame goes, and whatever waited on it fails with `error`. */
  end(error: Error): void {
    if (this.#ended) return;
    this.#ended = error;
    this.#channel.close(error);
    this.#frame.close();
    this.onEnded();
  }

  /** Ask, and read the answer: `expected`, or a failure (rejected as `asking.failure` words it). */
  #request<T extends McpAnswers['t']>(
    ask: (worker: Remote<McpClientApi>) => Promise<unknown>,
    expected: T,
    asking: Asking,
  ): Promise<Extract<McpAnswers, { t: T }>> {
    if (this.#ended) return Promise.reject(this.#ended);
    const { signal, timeoutMs } = asking;
    let fail: (failure: WireFailure) => Error = asking.failure;
    const asked = new Promise<Extract<McpAnswers, { t: T }>>((resolve, reject) => {
      fail = (failure) => {
        const error = asking.failure(failure);
        reject(error);
        return error;
      };
      this.#waiting.add(fail);
      this.#channel
        .request(
          // The client's methods answer with data, failures too: a thrown answer is not its doing.
          (worker) => ask(worker).catch(() => REFUSED),
          (value) => {
            const answer = value === REFUSED ? 'a refusal of its request' : readAnswer(value, expected);
            if (typeof answer === 'string') {
              this.#broken(answer);
              throw asking.failure(cannotRead(answer));
            }
            if (answer.t === 'failed') throw asking.failure((answer as McpAnswers & { t: 'failed' }).error);
            return answer as Extract<McpAnswers, { t: T }>;
          },
          {
            signal,
            timeoutMs,
            timeout: () => {
              const error = asking.failure({ kind: 'protocol', message: `no answer within ${timeoutMs} ms` });
              queueMicrotask(() => this.end(error));
              return error;
            },
          },
        )
        .then(resolve, reject);
    });
    return asked.finally(() => this.#waiting.delete(fail));
  }

  #told(message: McpToPage): void {
    if (message.t === 'changed') {
      this.onChanged();
      return;
    }
    const { call, progress, total, message: text } = message;
    if (typeof progress !== 'number' || (total !== undefined && typeof total !== 'number')) {
      this.#broken('progress that is not a number');
      return;
    }
    this.#progress.get(call)?.({
      progress,
      ...(total === undefined ? {} : { total }),
      ...(text ? { message: text } : {}),
    });
  }

  /**
   * The client's frame said something the page cannot read: nothing it says can be trusted any
   * more. Each request waiting fails with its own protocol failure, and the connection ends.
   */
  #broken(problem: string): void {
    if (this.#ended) return;
    const failure = cannotRead(problem);
    const errors = [...this.#waiting].map((fail) => fail(failure));
    this.end(errors[0] ?? new Error(failure.message));
  }
}

function cannotRead(problem: string): WireFailure {
  return { kind: 'protocol', message: `its client sent a message the page cannot read (${problem})` };
}

const KINDS = new Set<string>(['cors', 'unreachable', 'unauthorized', 'http', 'rpc', 'too-large', 'protocol']);
const isOptional = (value: unknown, type: 'number' | 'string') => value === undefined || typeof value === type;

/**
 * An answer of the client's worker, checked field by field before use (it holds a client whose
 * answers come from a remote server): the one `expected` or a failure; or what is wrong with it.
 */
export function readAnswer<T extends McpAnswers['t']>(
  value: unknown,
  expected: T,
): Extract<McpAnswers, { t: T | 'failed' }> | string {
  const answer = readMessage(ANSWERS, value);
  if (typeof answer === 'string') return answer;
  if (answer.t !== expected && answer.t !== 'failed') return `'${answer.t}' in answer to a request for '${expected}'`;
  switch (answer.t) {
    case 'failed': {
      const e = answer.error as unknown as Record<string, unknown>;
      if (
        KINDS.has(e.kind as string) &&
        typeof e.message === 'string' &&
        isOptional(e.status, 'number') &&
        isOptional(e.code, 'number')
      )
        break;
      return `a failure of no known kind: ${describeValue(e)}`;
    }
    case 'tools':
      if (answer.tools.every((t: unknown) => isPlainObject(t) && typeof t.name === 'string')) break;
      return 'a tool list that is not one';
    case 'result': {
      const { content } = answer.result;
      if (content === undefined || Array.isArray(content)) break;
      return `a result that is not one: ${describeValue(answer.result)}`;
    }
  }
  return answer as Extract<McpAnswers, { t: T | 'failed' }>;
}

function reasonText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
