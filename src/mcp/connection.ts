/**
 * One MCP client worker in its sealed frame, as the page talks to it: requests by id over the
 * frame's port, each with its signal, progress and time limit, and the end of it all (the frame
 * closed, every request still waiting failed with the reason).
 */
import { describeValue } from '../errors/moat-error';
import type { SandboxedFrame } from '../frame/sandboxed-frame';
import { isPlainObject } from '../json/json-value';
import type { FromWorker, ToWorker, WireFailure } from './protocol';

export type Request = ToWorker extends infer M ? (M extends { id: number } ? Omit<M, 'id'> : never) : never;

export interface Asking {
  signal?: AbortSignal;
  progress?: (delta: unknown) => void;
  /** The answer's time limit; running out ends the connection (it is not answering). */
  timeoutMs?: number;
  /** The error a failure answer becomes. */
  failure(failure: WireFailure): Error;
}

/** One client worker in its frame, and the requests waiting on it; ended once, for good. */
export class Connection {
  readonly #port: MessagePort;
  readonly #frame: SandboxedFrame;
  readonly #waiting = new Map<number, { answer(data: FromWorker): void; fail(error: Error): void } & Asking>();
  #nextId = 1;
  #ended: Error | undefined;
  onChanged = () => {};
  onEnded = () => {};

  constructor(port: MessagePort, frame: SandboxedFrame) {
    this.#port = port;
    this.#frame = frame;
    port.onmessage = ({ data }: MessageEvent<unknown>) => this.#receive(data);
  }

  /** Resolves with the answer to `message`; rejects with its failure, the signal's reason, or the end. */
  request(message: Request, asking: Asking): Promise<FromWorker> {
    const id = this.#nextId++;
    const { signal, timeoutMs } = asking;
    return new Promise<FromWorker>((resolve, reject) => {
      if (this.#ended) return reject(this.#ended);
      if (signal?.aborted) return reject(signal.reason);
      const late = () => this.end(asking.failure({ kind: 'protocol', message: `no answer within ${timeoutMs} ms` }));
      const timer = timeoutMs === undefined ? undefined : setTimeout(late, timeoutMs);
      const onAbort = () => {
        done();
        this.#port.postMessage({ t: 'cancel', id, reason: reasonText(signal?.reason) } satisfies ToWorker);
        reject(signal?.reason);
      };
      const done = () => {
        this.#waiting.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(id, {
        ...asking,
        answer: (data) => {
          done();
          resolve(data);
        },
        fail: (error) => {
          done();
          reject(error);
        },
      });
      this.#port.postMessage({ ...message, id } as ToWorker);
    });
  }

  /** Every later request carries these headers (a fresh access token). */
  setHeaders(headers: Record<string, string>): void {
    if (!this.#ended) this.#port.postMessage({ t: 'headers', headers } satisfies ToWorker);
  }

  /** Close the session (an HTTP DELETE where the server keeps one), waiting for it at most 2 s. */
  async close(): Promise<void> {
    if (this.#ended) return;
    const closed = new Promise<void>((resolve) => {
      this.#port.addEventListener('message', (e) => (e.data as FromWorker).t === 'closed' && resolve());
      setTimeout(resolve, 2_000);
    });
    this.#port.postMessage({ t: 'close' } satisfies ToWorker);
    await closed;
  }

  /** Its frame goes, and whatever waited on it fails with `error`. */
  end(error: Error): void {
    if (this.#ended) return;
    this.#ended = error;
    this.#port.close();
    this.#frame.close();
    for (const waiting of [...this.#waiting.values()]) waiting.fail(error);
    this.onEnded();
  }

  #receive(raw: unknown): void {
    const data = readFromWorker(raw);
    if (typeof data === 'string') {
      this.#broken(data);
      return;
    }
    if (data.t === 'changed') {
      this.onChanged();
      return;
    }
    if (!('id' in data)) return;
    const waiting = this.#waiting.get(data.id);
    if (!waiting) return;
    if (data.t === 'progress') {
      const { progress, total, message } = data;
      waiting.progress?.({ progress, ...(total === undefined ? {} : { total }), ...(message ? { message } : {}) });
    } else if (data.t === 'failed') waiting.fail(waiting.failure(data.error));
    else waiting.answer(data);
  }

  /**
   * The client's frame said something the page cannot read: nothing it says can be trusted any
   * more. Each request waiting fails with its own protocol failure, and the connection ends.
   */
  #broken(problem: string): void {
    const failure: WireFailure = {
      kind: 'protocol',
      message: `its client sent a message the page cannot read (${problem})`,
    };
    const errors = [...this.#waiting.values()].map((waiting) => [waiting, waiting.failure(failure)] as const);
    for (const [waiting, error] of errors) waiting.fail(error);
    this.end(errors[0]?.[1] ?? new Error(failure.message));
  }
}

const KINDS = new Set<string>(['cors', 'unreachable', 'unauthorized', 'http', 'rpc', 'too-large', 'protocol']);
const isOptional = (value: unknown, type: 'number' | 'string') => value === undefined || typeof value === type;

/**
 * A message from the client's frame, checked field by field before use (the frame holds a
 * client whose answers come from a remote server); or what is wrong with it.
 */
export function readFromWorker(data: unknown): FromWorker | string {
  if (!isPlainObject(data) || typeof data.t !== 'string') return `not a message: ${describeValue(data)}`;
  const m = data as Record<string, unknown>;
  if (m.t === 'changed' || m.t === 'closed') return data as FromWorker;
  if (typeof m.id !== 'number') return `'${m.t}' without an id`;
  switch (m.t) {
    case 'connected':
      return data as FromWorker;
    case 'progress':
      if (typeof m.progress === 'number' && isOptional(m.total, 'number') && isOptional(m.message, 'string'))
        return data as FromWorker;
      return 'progress that is not a number';
    case 'failed': {
      const e = m.error;
      if (
        isPlainObject(e) &&
        KINDS.has(e.kind as string) &&
        typeof e.message === 'string' &&
        isOptional(e.status, 'number') &&
        isOptional(e.code, 'number')
      )
        return data as FromWorker;
      return `a failure of no known kind: ${describeValue(e)}`;
    }
    case 'tools':
      if (Array.isArray(m.tools) && m.tools.every((t) => isPlainObject(t) && typeof t.name === 'string'))
        return data as FromWorker;
      return 'a tool list that is not one';
    case 'result': {
      const r = m.result;
      if (isPlainObject(r) && (r.content === undefined || Array.isArray(r.content))) return data as FromWorker;
      return `a result that is not one: ${describeValue(r)}`;
    }
    default:
      return `an unknown message, '${describeValue(m.t)}'`;
  }
}

function reasonText(reason: unknown): string {
  return reason instanceof Error ? reason.message : String(reason);
}
