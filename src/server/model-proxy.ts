/**
 * A server route that holds the model provider's key, so that the page never does: the page's
 * model client sends its request here with no key, the route checks the path and the model
 * against its own lists, adds the key the way the provider takes it, and streams the answer back
 * as it comes. Web-standard `Request`, `Response` and `fetch` only (no `node:` import), so the one
 * handler runs in Node, Deno, Bun and edge functions.
 */
import { checkProxyOptions, type ModelProxyOptions, type Route } from './proxy-options';
import { readBody } from './read-body';

/** A fetch handler: one request in, one response out (never a throw). */
export type ModelProxy = (request: Request) => Promise<Response>;

/**
 * The query parameters passed on (Gemini's `alt=sse`, an Azure-style `api-version`): anything
 * else a client adds stays here (a `key` above all).
 */
const FORWARDED_QUERY = new Set(['alt', 'api-version']);

/** What of the upstream's answer reaches the client: its type, and what a retry or a support ticket reads. */
const ANSWER_HEADERS = ['content-type', 'retry-after', 'retry-after-ms', 'request-id', 'x-request-id'];

/**
 * A fetch handler that forwards the page's model requests to the provider with the key added.
 * It forwards only POSTs of a JSON object to the allowed paths naming an allowed model (from the
 * body's `model`, or from the path where `{model}` stands), and refuses anything else with a 4xx
 * JSON error `{ error: { type, message } }`, before sending anything. Of the client's request it
 * sends on only the body, `accept` and `anthropic-version`: the client's own credentials and
 * cookies stay behind. The answer's body streams through as it arrives; an error answer's status
 * and body pass through, the key cut out.
 *
 * Anyone who can reach the route spends the key on the allowed models: put it behind the app's own
 * sign-in (check the session, then call the handler).
 *
 * @example
 * const proxy = createModelProxy({
 *   provider: 'openai',
 *   apiKey: process.env.OPENAI_API_KEY,
 *   allow: { models: ['gpt-4.1-mini'] },
 *   basePath: '/api/openai',
 * });
 * // Deno.serve(proxy); Bun.serve({ fetch: proxy }); export default { fetch: proxy };
 * // the page: openAICompatible({ baseURL: '/api/openai', model: 'gpt-4.1-mini' })
 */
export function createModelProxy(options: ModelProxyOptions): ModelProxy {
  const route = checkProxyOptions(options);
  return async (request) => {
    const cors = corsHeaders(route.origins, request);
    try {
      return await forward(route, request, cors);
    } catch (error) {
      // Only a request body that broke off while being read gets here (the client went away).
      return refuse(cors, 400, 'invalid_request', `The request could not be read (${errorText(error)}).`);
    }
  };
}

async function forward(route: Route, request: Request, cors: Headers): Promise<Response> {
  const origin = request.headers.get('origin');
  if (request.method === 'OPTIONS') {
    if (origin === null || !route.origins.has(origin))
      return refuse(
        cors,
        403,
        'origin_not_allowed',
        `Cross-origin requests from ${origin ?? 'this page'} are not allowed: list the page's origin in the route's \`origin\` option.`,
      );
    cors.set('access-control-allow-methods', 'POST');
    // The client's own headers are asked for and allowed, then dropped before forwarding.
    cors.set('access-control-allow-headers', request.headers.get('access-control-request-headers') ?? 'content-type');
    cors.set('access-control-max-age', '600');
    return new Response(null, { status: 204, headers: cors });
  }
  if (request.method !== 'POST')
    return refuse(cors, 405, 'method_not_allowed', `This route takes POST requests, not ${request.method}.`);

  const url = new URL(request.url);
  const path = pathUnder(url.pathname, route.basePath);
  const matched = path === undefined ? undefined : matchPath(route, path);
  if (!matched)
    return refuse(
      cors,
      404,
      'path_not_allowed',
      `POST ${url.pathname} is not a path this route forwards. It forwards: ${route.paths
        .map((p) => `${route.basePath}/${p.pattern}`)
        .join(', ')}.`,
    );
  // A JSON content type makes a cross-origin browser ask first (a preflight this route answers
  // only for its listed origins), so another site's page cannot send a request here unseen.
  const type = request.headers.get('content-type') ?? '';
  if (!/^application\/json\s*(;|$)/i.test(type))
    return refuse(
      cors,
      415,
      'unsupported_media_type',
      `The request's content type must be application/json, got ${type ? `'${type}'` : 'none'}.`,
    );

  const body = await readBody(request, route.maxBodyBytes);
  if (body === 'too-large')
    return refuse(
      cors,
      413,
      'body_too_large',
      `The request body is larger than this route takes (${route.maxBodyBytes} bytes).`,
    );
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(body));
  } catch {
    return refuse(cors, 400, 'invalid_json', 'The request body is not valid JSON.');
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json))
    return refuse(cors, 400, 'invalid_json', 'The request body must be a JSON object.');
  // A second spelling of `model` (`Model`, `MODEL`) is refused: a server that matches keys
  // without case (Go's encoding/json: Ollama, many OpenAI-compatible ones) would run the one
  // this check did not read. A key repeated exactly is gone from what is forwarded, which is the
  // body as read here, written anew.
  if (Object.keys(json).some((key) => key !== 'model' && key.toLowerCase() === 'model'))
    return refuse(
      cors,
      400,
      'model_ambiguous',
      'The request body names its model under more than one spelling of `model`.',
    );
  const model = matched.model ?? (json as { model?: unknown }).model;
  if (typeof model !== 'string' || model === '')
    return refuse(cors, 400, 'model_missing', 'The request names no model (a `model` string in its body).');
  if (!route.models.has(model))
    return refuse(
      cors,
      403,
      'model_not_allowed',
      `The model '${clip(model)}' is not allowed here. Allowed: ${[...route.models].join(', ')}.`,
    );

  const target = new URL(`${route.baseURL}/${matched.path}`);
  for (const [name, value] of url.searchParams) if (FORWARDED_QUERY.has(name)) target.searchParams.append(name, value);
  let upstream: Response;
  try {
    upstream = await fetch(target, {
      method: 'POST',
      headers: upstreamHeaders(route, request),
      body: JSON.stringify(json),
      signal: request.signal,
      // A redirect followed would carry the key (in x-api-key, x-goog-api-key) to wherever it points.
      redirect: 'manual',
    });
  } catch (error) {
    return refuse(
      cors,
      502,
      'upstream_unreachable',
      `The model server at ${target.origin} could not be reached (${redact(errorText(error), route.apiKey)}).`,
    );
  }
  if (upstream.type === 'opaqueredirect' || (upstream.status >= 300 && upstream.status < 400)) {
    await upstream.body?.cancel();
    return refuse(
      cors,
      502,
      'upstream_redirect',
      `The model server answered a redirect (${upstream.status}), which this route does not follow (it would carry the key).`,
    );
  }
  const headers = cors;
  for (const name of ANSWER_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  headers.set('cache-control', 'no-store');
  // Proxies in front (nginx) otherwise may hold a streamed answer until it ends.
  headers.set('x-accel-buffering', 'no');
  if (upstream.status === 204 || upstream.status === 205)
    return new Response(null, { status: upstream.status, headers });
  if (!upstream.ok) {
    // An error body is small, and some echo what they were sent: the key never leaves.
    const text = await upstream.text().catch(() => '');
    return new Response(redact(text, route.apiKey), { status: upstream.status, headers });
  }
  return new Response(upstream.body, { status: upstream.status, headers });
}

/** The headers sent upstream: the route's own, the protocol headers the client chose, and the key. */
function upstreamHeaders(route: Route, request: Request): Headers {
  const out = new Headers(route.headers);
  out.set('content-type', 'application/json');
  for (const name of ['accept', 'anthropic-version']) {
    const value = request.headers.get(name);
    if (value !== null && !out.has(name)) out.set(name, value);
  }
  const key = route.apiKey;
  const { auth } = route;
  if (auth === 'anthropic') {
    if (!out.has('anthropic-version')) out.set('anthropic-version', '2023-06-01');
    if (key) out.set('x-api-key', key);
  } else if (auth === 'gemini') {
    if (key) out.set('x-goog-api-key', key);
  } else if (auth === 'bearer') {
    if (key) out.set('authorization', `Bearer ${key}`);
  } else if (auth !== 'none' && key) out.set(auth.header, key);
  return out;
}

/** The path after `basePath` (no leading slash), or undefined when the path is not under it. */
function pathUnder(pathname: string, basePath: string): string | undefined {
  if (basePath === '') return pathname.replace(/^\/+/, '');
  if (pathname !== basePath && !pathname.startsWith(`${basePath}/`)) return undefined;
  return pathname.slice(basePath.length).replace(/^\/+/, '');
}

/**
 * The allowed path this one is, with the model it names (`{model}`), and the path to send:
 * rebuilt from the pattern, so nothing but the model's own (encoded) name comes from the client.
 */
function matchPath(route: Route, path: string): { path: string; model?: string } | undefined {
  for (const { pattern, match } of route.paths) {
    const found = match.exec(path);
    if (!found) continue;
    if (found[1] === undefined) return { path: pattern };
    let model: string;
    try {
      model = decodeURIComponent(found[1]);
    } catch {
      return undefined;
    }
    return { path: pattern.replace('{model}', encodeURIComponent(model)), model };
  }
  return undefined;
}

/** CORS headers for a listed origin (none for any other: the browser then keeps the answer from it). */
function corsHeaders(origins: ReadonlySet<string>, request: Request): Headers {
  const headers = new Headers();
  if (origins.size === 0) return headers;
  headers.set('vary', 'origin');
  const origin = request.headers.get('origin');
  if (origin !== null && origins.has(origin)) {
    headers.set('access-control-allow-origin', origin);
    headers.set('access-control-expose-headers', 'retry-after, retry-after-ms, request-id, x-request-id');
  }
  return headers;
}

function refuse(cors: Headers, status: number, type: string, message: string): Response {
  const headers = new Headers(cors);
  headers.set('content-type', 'application/json');
  headers.set('cache-control', 'no-store');
  return new Response(JSON.stringify({ error: { type, message } }), { status, headers });
}

function redact(text: string, key: string | undefined): string {
  return key ? text.split(key).join('[redacted]') : text;
}

/** A name from the request, quoted in an error: its first 100 characters (the body may be megabytes). */
function clip(text: string): string {
  return text.length > 100 ? `${text.slice(0, 100)}…` : text;
}

function errorText(error: unknown): string {
  const cause = error instanceof Error ? error.cause : undefined;
  const text = error instanceof Error ? error.message : String(error);
  return cause instanceof Error ? `${text}: ${cause.message}` : text;
}
