import { describeValue } from '../errors/moat-error';
import { isRetryableStatus, ModelHTTPError } from '../errors/model-http-error';
import { ModelNetworkError } from '../errors/model-network-error';
import { checkCount, checkDuration } from '../errors/option-checks';
import { IMAGE_LIMITS, tooLarge } from '../messages/image-limits';
import { modelStream, type OpenedStream } from './model-stream';
import type { HttpClientOptions, ModelRequest, ModelStream } from './types';

/** The retry policy and transport one client uses, checked once when the client is made. */
export interface Transport {
  readonly fetch: typeof fetch;
  readonly headers: Record<string, string>;
  readonly maxRetries: number;
  readonly retryDelayMs: number;
  readonly maxRetryDelayMs: number;
}

/** Check a client's HTTP options (a `TypeError` naming the bad one) and fill in the defaults. */
export function transport(options: HttpClientOptions): Transport {
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    throw new TypeError(`Expected \`fetch\` to be a function, got ${describeValue(options.fetch)}`);
  const headers = options.headers ?? {};
  if (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string'))
    throw new TypeError(`Expected \`headers\` to be an object of strings, got ${describeValue(headers)}`);
  return {
    // Looked up per request, so that a fetch patched later (tests, service shims) is the one used.
    fetch: options.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    headers: { ...headers },
    maxRetries: checkCount('maxRetries', options.maxRetries ?? 2),
    retryDelayMs: checkDuration('retryDelayMs', options.retryDelayMs ?? 500),
    maxRetryDelayMs: checkDuration('maxRetryDelayMs', options.maxRetryDelayMs ?? 20_000),
  };
}

export interface PostRequest {
  provider: string;
  url: string;
  headers: Record<string, string>;
  body: unknown;
  signal: AbortSignal;
  /** Values that must never appear in an error (the API key). */
  secrets: readonly string[];
}

/**
 * POST a JSON body and return the response once its status is a success. A failure before the
 * first byte (no answer, or a retryable status) is tried again up to `maxRetries` times, after
 * `Retry-After` (or `retry-after-ms`) when the server says, else an exponential backoff with
 * jitter, capped at `maxRetryDelayMs`. Throws `ModelHTTPError`, `ModelNetworkError`, or the
 * signal's reason.
 */
export async function post(t: Transport, request: PostRequest): Promise<Response> {
  const { signal, provider, secrets } = request;
  const init: RequestInit = {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...t.headers, ...request.headers },
    body: JSON.stringify(request.body),
    signal,
  };
  for (let attempt = 0; ; attempt++) {
    signal.throwIfAborted();
    let response: Response;
    try {
      response = await t.fetch(request.url, init);
    } catch (cause) {
      if (signal.aborted) throw signal.reason;
      if (attempt < t.maxRetries) {
        await sleep(backoff(t, attempt), signal);
        continue;
      }
      throw new ModelNetworkError({
        provider,
        url: redact(request.url, secrets),
        cause: cause instanceof Error ? redactError(cause, secrets) : cause,
      });
    }
    if (response.ok) return response;
    const body = redact(await readText(response, signal), secrets);
    const retryable = isRetryableStatus(response.status);
    if (retryable && attempt < t.maxRetries) {
      await sleep(Math.min(retryAfter(response.headers) ?? backoff(t, attempt), t.maxRetryDelayMs), signal);
      continue;
    }
    throw new ModelHTTPError({ status: response.status, provider, body, retryable });
  }
}

/** Remove every secret from a text (an API key echoed in an error body or a URL). */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join('[redacted]');
  return out;
}

function redactError(error: Error, secrets: readonly string[]): Error {
  if (!secrets.some((s) => s && error.message.includes(s))) return error;
  const copy = new Error(redact(error.message, secrets));
  copy.name = error.name;
  return copy;
}

async function readText(response: Response, signal: AbortSignal): Promise<string> {
  try {
    return await response.text();
  } catch {
    if (signal.aborted) throw signal.reason;
    return '';
  }
}

/** The delay a `Retry-After` (seconds or an HTTP date) or `retry-after-ms` header asks for. */
export function retryAfter(headers: Headers): number | undefined {
  const ms = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after');
  if (value === null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return seconds * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

function backoff(t: Transport, attempt: number): number {
  const base = t.retryDelayMs * 2 ** attempt;
  return Math.min(base * (0.75 + Math.random() * 0.5), t.maxRetryDelayMs);
}

/** Wait `ms`, or reject with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * One streamed model request over HTTP: POST (with the retries above) once the stream is read,
 * then `decode` the response's bytes. The API key is kept out of every error.
 */
export function streamOverHTTP(
  t: Transport,
  request: {
    provider: string;
    url: string;
    headers: Record<string, string>;
    /** The JSON body, or how to make it when it needs work first (images to make smaller). */
    body: unknown | Later;
    apiKey: string | undefined;
    signal: AbortSignal | undefined;
  },
  decode: (bytes: ReadableStream<Uint8Array>, signal: AbortSignal) => OpenedStream,
): ModelStream {
  const { provider, url, headers, apiKey } = request;
  return modelStream(provider, request.signal, async (signal) => {
    const body = request.body instanceof Later ? await request.body.make() : request.body;
    const response = await post(t, { provider, url, headers, body, signal, secrets: apiKey ? [apiKey] : [] });
    return decode(bodyOf(response), signal);
  });
}

/** A body made when the request is sent (see `withFittedImages`). */
export class Later {
  constructor(readonly make: () => Promise<unknown>) {}
}

/**
 * The request's body, built now (so that a part the provider cannot take throws before anything
 * is sent), or, when an image is larger than `format` takes, a `Later` that makes those images
 * smaller first (`fitImages`: the thread keeps the originals).
 */
export function withFittedImages(
  request: ModelRequest,
  format: string,
  build: (request: ModelRequest) => Record<string, unknown>,
): Record<string, unknown> | Later {
  const body = build(request);
  const limits = IMAGE_LIMITS[format];
  if (!limits || !request.messages.some((m) => tooLarge(m, limits))) return body;
  return new Later(async () => {
    // Loaded only when an image is too large: most pages never need it.
    const { fitImages } = await import('../messages/fit-images');
    return build({ ...request, messages: [...(await fitImages(request.messages, format))] });
  });
}

/** Join a base URL and a path with exactly one slash between them. */
export function joinURL(base: string, path: string): string {
  return `${base.replace(/\/+$/, '')}/${path.replace(/^\/+/, '')}`;
}

/** A successful response's body stream (a 200 without one is an empty answer). */
function bodyOf(response: Response): ReadableStream<Uint8Array> {
  return response.body ?? new ReadableStream({ start: (c) => c.close() });
}
