// The model route (moat-sdk/server) against the wire-protocol server (test/model-server) and
// against small upstreams of its own on 127.0.0.1: what it forwards, what it keeps back, what it
// refuses, and that an answer streams through as it comes.
import { readFileSync } from 'node:fs';
import { createServer, request as httpRequest, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, relative, resolve } from 'node:path';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { addScenario, requestsOf, type Scenario } from '../../test/model-server/scenarios';
import type { WireFormat } from '../../test/model-server/wire-format';
import { serveRoute } from '../../test/node-route';
import { sleep } from '../../test/sleep';
import { ModelHTTPError } from '../errors/model-http-error';
import { toolMessage, userMessage } from '../messages/constructors';
import { anthropic } from '../models/anthropic';
import { gemini } from '../models/gemini';
import { ollama } from '../models/ollama';
import { openAICompatible } from '../models/openai-compatible';
import type { ChatModel, ModelRequest } from '../models/types';
import type { ToolSpec } from '../providers/tool-spec';
import type { StreamPart } from '../stream/stream-part';
import { createModelProxy } from './model-proxy';
import type { ModelProxyOptions } from './proxy-options';

const url = inject('modelServerUrl');
const KEY = 'sk-route-secret-0123456789';
const root = resolve(import.meta.dirname, '../..');

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A route served by node:http through the adapter docs/server.md shows; its URL. */
async function route(options: ModelProxyOptions): Promise<string> {
  const served = await serveRoute(createModelProxy(options));
  cleanups.push(served.close);
  return served.url;
}

async function drain(model: ChatModel, request: ModelRequest) {
  const stream = model.stream(request);
  const parts: StreamPart[] = [];
  for await (const part of stream) parts.push(part);
  return { parts, message: stream.message() };
}

const tools: ToolSpec[] = [
  {
    name: 'multiply',
    description: 'Multiply.',
    inputSchema: { type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'] },
  },
];
const turns: Scenario['turns'] = [
  { text: 'Let me see.', toolCalls: [{ name: 'multiply', args: { a: 3, b: 12 } }] },
  { text: 'It is {{results}}.' },
];

/** Per wire format: the route in front of the model server, and Moat's client pointed at it with no key. */
const setups: Record<
  WireFormat,
  { proxy: (model: string) => ModelProxyOptions; client: (routeURL: string, model: string) => ChatModel; key: string }
> = {
  'openai-chat': {
    proxy: (model) => ({ provider: 'openai', baseURL: `${url}/v1`, apiKey: KEY, allow: { models: [model] } }),
    client: (at, model) => openAICompatible({ baseURL: at, model, maxRetries: 0 }),
    key: 'authorization',
  },
  'openai-responses': {
    proxy: (model) => ({ provider: 'openai', baseURL: `${url}/v1`, apiKey: KEY, allow: { models: [model] } }),
    client: (at, model) => openAICompatible({ baseURL: at, model, api: 'responses', maxRetries: 0 }),
    key: 'authorization',
  },
  anthropic: {
    proxy: (model) => ({ provider: 'anthropic', baseURL: url, apiKey: KEY, allow: { models: [model] } }),
    client: (at, model) => anthropic({ baseURL: at, model, maxRetries: 0 }),
    key: 'x-api-key',
  },
  gemini: {
    proxy: (model) => ({ provider: 'gemini', baseURL: `${url}/v1beta`, apiKey: KEY, allow: { models: [model] } }),
    client: (at, model) => gemini({ baseURL: at, model, maxRetries: 0 }),
    key: 'x-goog-api-key',
  },
  ollama: {
    proxy: (model) => ({ provider: 'ollama', baseURL: url, allow: { models: [model] } }),
    client: (at, model) => ollama({ baseURL: at, model, maxRetries: 0 }),
    key: '',
  },
};

describe.each(Object.keys(setups) as WireFormat[])(
  "Moat's %s client through the route, no key on its side",
  (format) => {
    const setup = setups[format];

    it('completes a tool-call answer and its follow-up; the key reaches the provider and nothing else', async () => {
      const id = await addScenario(url, { turns, ...(setup.key && { apiKey: KEY }) }, 'route');
      const at = `${await route({ ...setup.proxy(id), basePath: '/api/model' })}/api/model`;
      const model = setup.client(at, id);
      const first = await drain(model, { messages: [userMessage('3 * 12?')], tools });
      expect(first.message.toolCalls.map((c) => [c.name, c.args])).toEqual([['multiply', { a: 3, b: 12 }]]);
      const call = first.message.toolCalls[0];
      if (!call) throw new Error('no call');
      const history = [
        userMessage('3 * 12?'),
        first.message,
        toolMessage({ toolCallId: call.id, name: call.name, content: '36' }),
      ];
      const second = await drain(model, { messages: history, tools });
      expect(second.message.content).toBe('It is 36.');
      // Upstream: the route's key, in the provider's own header (the scenario refuses any other).
      const requests = await requestsOf(url, id);
      expect(requests.map((r) => r.answer)).toEqual(['stream', 'stream']);
      if (setup.key) expect(requests[0]?.headers[setup.key]).toMatch(KEY);
      if (format === 'anthropic') expect(requests[0]?.headers['anthropic-version']).toBe('2023-06-01');
      // The client side: nothing it was given, sent or shown holds the key.
      expect(JSON.stringify([first, second])).not.toContain(KEY);
    });
  },
);

describe('what the route forwards', () => {
  it("adds its key and leaves the client's credentials, cookies and other headers behind", async () => {
    const id = await addScenario(url, { turns: [{ text: 'hi' }], apiKey: KEY }, 'route');
    const proxy = createModelProxy({
      provider: 'gemini',
      baseURL: `${url}/v1beta`,
      apiKey: KEY,
      allow: { models: [id] },
    });
    const response = await proxy(
      new Request(`http://app.test/models/${id}:streamGenerateContent?alt=sse&key=client-key`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: 'Bearer client-token',
          cookie: 'session=client-session',
          'x-api-key': 'client-x-api-key',
          'x-goog-api-key': 'client-goog-key',
          'x-forwarded-for': '10.0.0.1',
        },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      }),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toContain('hi');
    const [request] = await requestsOf(url, id);
    expect(request?.path).toBe(`/v1beta/models/${id}:streamGenerateContent`);
    expect(request?.headers['x-goog-api-key']).toBe(KEY);
    for (const name of ['authorization', 'cookie', 'x-api-key', 'x-forwarded-for'])
      expect(request?.headers, name).not.toHaveProperty(name);
    expect(JSON.stringify(request)).not.toMatch(/client-(key|token|session|x-api-key|goog-key)/);
  });

  it('streams the answer: its first piece reaches the client before the provider has finished', async () => {
    const upstream = await heldUpstream();
    const proxy = createModelProxy({
      provider: { baseURL: upstream.url, auth: 'none' },
      allow: { models: ['m'] },
    });
    // The handler itself, and the handler served by node:http as docs/server.md shows.
    const served = await serveRoute(proxy);
    cleanups.push(served.close);
    for (const [via, base, send] of [
      ['handler', 'http://app.test', proxy],
      ['node:http', served.url, fetch],
    ] as const) {
      // Bounded: a route that buffered would hold even its response until the upstream ended.
      const reading = (async () => {
        const response = await send(chatRequest(`${base}/chat/completions`, { model: 'm' }));
        const reader = (response.body as ReadableStream<Uint8Array>).getReader();
        return { reader, first: await reader.read() };
      })();
      const outcome = await Promise.race([reading, sleep(3_000).then(() => 'still waiting' as const)]);
      if (outcome === 'still waiting') throw new Error(`${via}: no piece of the answer before the upstream finished`);
      expect(upstream.finished(), via).toBe(false);
      expect(new TextDecoder().decode(outcome.first.value), via).toContain('one');
      upstream.release();
      let rest = '';
      for (let r = await outcome.reader.read(); !r.done; r = await outcome.reader.read())
        rest += new TextDecoder().decode(r.value);
      expect(rest, via).toContain('two');
      expect(upstream.finished(), via).toBe(true);
    }
  });

  it('the Node listener answers 400 to a request fetch cannot make (TRACE, a Host that is no host) and serves on', async () => {
    const served = await serveRoute(createModelProxy({ provider: 'openai', apiKey: KEY, allow: { models: ['m'] } }));
    cleanups.push(served.close);
    const { port } = served.server.address() as AddressInfo;
    const raw = (method: string, host: string) =>
      new Promise<number>((done, fail) => {
        const request = httpRequest({ host: '127.0.0.1', port, method, path: '/chat/completions', headers: { host } });
        request.on('response', (response) => {
          response.resume();
          done(response.statusCode ?? 0);
        });
        request.on('error', fail);
        // No answer in time is an answer too (the old listener crashed and never wrote one).
        request.setTimeout(2_000, () => {
          request.destroy();
          done(0);
        });
        request.end();
      });
    expect(await raw('TRACE', `127.0.0.1:${port}`)).toBe(400);
    expect(await raw('POST', 'a:99999')).toBe(415); // the listener no longer builds a URL from Host
    expect(await raw('GET', `127.0.0.1:${port}`)).toBe(405);
  });

  it('a client that hangs up mid-answer stops the request upstream, and the route serves on', async () => {
    const upstream = await heldUpstream();
    const served = await serveRoute(
      createModelProxy({ provider: { baseURL: upstream.url, auth: 'none' }, allow: { models: ['m'] } }),
    );
    cleanups.push(served.close);
    const stop = new AbortController();
    const response = await fetch(`${served.url}/chat/completions`, {
      ...requestInit({ model: 'm' }),
      signal: stop.signal,
    });
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toContain('one');
    stop.abort();
    const outcome = await Promise.race([
      upstream.hangUps.next.then(() => 'hung up'),
      sleep(3_000).then(() => 'still waiting'),
    ]);
    expect(outcome).toBe('hung up');
    // The route is still there: the next request gets its whole answer.
    const next = fetch(`${served.url}/chat/completions`, requestInit({ model: 'm' })).then((r) => r.text());
    await vi.waitFor(() => expect(upstream.requests()).toBe(2));
    upstream.release();
    expect(await next).toContain('two');
  });

  it('passes an error answer through, readable, with Retry-After, and cuts the key out of what it echoes', async () => {
    const id = await addScenario(
      url,
      { turns: [{ text: 'x', faults: [{ status: 429, retryAfter: 7 }] }], apiKey: KEY },
      'route',
    );
    const proxy = createModelProxy({ provider: 'openai', baseURL: `${url}/v1`, apiKey: KEY, allow: { models: [id] } });
    const limited = await proxy(chatRequest('http://app.test/chat/completions', { model: id }));
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(await limited.json()).toMatchObject({ error: { message: 'Scripted failure 429.' } });

    // A key the provider refuses, which its 401 quotes back.
    const wrong = await addScenario(url, { turns: [{ text: 'x' }], apiKey: 'the-right-key' }, 'route');
    const refused = createModelProxy({
      provider: 'openai',
      baseURL: `${url}/v1`,
      apiKey: KEY,
      allow: { models: [wrong] },
    });
    const answer = await refused(chatRequest('http://app.test/chat/completions', { model: wrong }));
    expect(answer.status).toBe(401);
    const text = await answer.text();
    expect(text).toContain('Incorrect API key provided: [redacted]');
    expect(text).not.toContain(KEY);
    // Moat's client reads it as any provider's 401.
    const at = await route({ provider: 'openai', baseURL: `${url}/v1`, apiKey: KEY, allow: { models: [wrong] } });
    const error = await drain(openAICompatible({ baseURL: at, model: wrong, maxRetries: 0 }), {
      messages: [userMessage('hi')],
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelHTTPError);
    expect((error as ModelHTTPError).status).toBe(401);
    expect((error as ModelHTTPError).message).toMatch(/Incorrect API key provided: \[redacted\]/);
  });

  it('does not follow a redirect, which would carry the key elsewhere', async () => {
    const seen: IncomingHttpHeaders[] = [];
    const server = createServer((req, res) => {
      seen.push(req.headers);
      if (req.url?.startsWith('/elsewhere')) return void res.end('{}');
      res.writeHead(307, { location: '/elsewhere' }).end();
    });
    const at = await listen(server);
    const proxy = createModelProxy({ provider: 'anthropic', baseURL: at, apiKey: KEY, allow: { models: ['m'] } });
    const response = await proxy(chatRequest('http://app.test/v1/messages', { model: 'm' }));
    expect(response.status).toBe(502);
    expect(await response.json()).toMatchObject({ error: { type: 'upstream_redirect' } });
    expect(seen).toHaveLength(1);
  });
});

describe('what the route refuses, never forwarding it', () => {
  const proxy = createModelProxy({
    provider: 'openai',
    baseURL: 'http://127.0.0.1:9/v1',
    apiKey: KEY,
    allow: { models: ['gpt-small'] },
    basePath: '/api/openai',
    maxBodyBytes: 1000,
  });
  const at = (path: string) => `http://app.test/api/openai/${path}`;

  /** The route's answer, and that it sent nothing upstream. */
  async function refused(request: Request) {
    const fetch = vi.spyOn(globalThis, 'fetch');
    const response = await proxy(request);
    expect(fetch).not.toHaveBeenCalled();
    return { status: response.status, body: (await response.json()) as { error: { type: string; message: string } } };
  }

  it('a model it does not allow (403), naming the ones it does', async () => {
    expect(await refused(chatRequest(at('chat/completions'), { model: 'gpt-huge' }))).toEqual({
      status: 403,
      body: {
        error: { type: 'model_not_allowed', message: "The model 'gpt-huge' is not allowed here. Allowed: gpt-small." },
      },
    });
    expect((await refused(chatRequest(at('chat/completions'), {}))).body.error.type).toBe('model_missing');
  });

  it('a model named under a second spelling of `model` (400): a server matching keys without case would run it', async () => {
    expect(await refused(chatRequest(at('chat/completions'), { model: 'gpt-small', Model: 'gpt-huge' }))).toEqual({
      status: 400,
      body: {
        error: {
          type: 'model_ambiguous',
          message: 'The request body names its model under more than one spelling of `model`.',
        },
      },
    });
  });

  it('forwards the body it checked: a key repeated exactly goes as the one read, and unknown query parameters stay', async () => {
    const fetch = vi.spyOn(globalThis, 'fetch').mockResolvedValue(new Response('{}'));
    const body = '{"model":"gpt-huge","messages":[],"model":"gpt-small"}';
    const response = await proxy(
      new Request(`${at('chat/completions')}?api-version=1&debug=1&key=k`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      }),
    );
    expect(response.status).toBe(200);
    const [target, init] = fetch.mock.calls[0] ?? [];
    expect(new URL(String(target)).search).toBe('?api-version=1');
    expect(init?.body).toBe('{"model":"gpt-small","messages":[]}');
  });

  it("a model named in the path (Gemini's) that it does not allow", async () => {
    const gemini = createModelProxy({ provider: 'gemini', apiKey: KEY, allow: { models: ['gemini-small'] } });
    const fetch = vi.spyOn(globalThis, 'fetch');
    for (const model of ['gemini-huge', 'gemini-small%2F..%2Fother', '..'])
      expect(
        (await gemini(chatRequest(`http://app.test/models/${model}:streamGenerateContent?alt=sse`, {}))).status,
        model,
      ).toBeOneOf([403, 404]);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a path it does not allow (404), and one outside its basePath', async () => {
    for (const path of [
      at('embeddings'),
      at('chat/completions/extra'),
      at('files'),
      'http://app.test/chat/completions',
    ]) {
      const { status, body } = await refused(chatRequest(path, { model: 'gpt-small' }));
      expect(status, path).toBe(404);
      expect(body.error.message, path).toMatch(
        /It forwards: \/api\/openai\/chat\/completions, \/api\/openai\/responses\.$/,
      );
    }
  });

  it('a body larger than maxBodyBytes (413), declared or streamed, before reading what it declared', async () => {
    const big = JSON.stringify({ model: 'gpt-small', messages: [{ role: 'user', content: 'x'.repeat(2000) }] });
    let pulled = 0;
    const declared = new Request(at('chat/completions'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'content-length': String(big.length) },
      body: new ReadableStream(
        {
          pull(controller) {
            pulled++;
            controller.enqueue(new TextEncoder().encode(big));
            controller.close();
          },
        },
        { highWaterMark: 0 }, // pulled only when read
      ),
      duplex: 'half',
    } as RequestInit);
    expect((await refused(declared)).status).toBe(413);
    expect(pulled).toBe(0);
    const chunks = [big.slice(0, 600), big.slice(600)];
    const streamed = new Request(at('chat/completions'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: new ReadableStream({
        pull(controller) {
          const chunk = chunks.shift();
          if (chunk === undefined) controller.close();
          else controller.enqueue(new TextEncoder().encode(chunk));
        },
      }),
      duplex: 'half',
    } as RequestInit);
    expect(await refused(streamed)).toEqual({
      status: 413,
      body: {
        error: { type: 'body_too_large', message: 'The request body is larger than this route takes (1000 bytes).' },
      },
    });
  });

  it('a body that is not a JSON object, a GET, and a non-JSON content type', async () => {
    const post = (body: string, type = 'application/json') =>
      new Request(at('chat/completions'), { method: 'POST', headers: { 'content-type': type }, body });
    expect(await refused(post('{"model":'))).toMatchObject({ status: 400, body: { error: { type: 'invalid_json' } } });
    expect(await refused(post('["gpt-small"]'))).toMatchObject({
      status: 400,
      body: { error: { type: 'invalid_json' } },
    });
    expect(await refused(post('{"model":"gpt-small"}', 'text/plain'))).toMatchObject({ status: 415 });
    expect(await refused(new Request(at('chat/completions')))).toMatchObject({ status: 405 });
  });

  it('cross-origin: a preflight from an origin it does not list (403); a listed one gets CORS headers', async () => {
    const preflight = (origin: string) =>
      new Request(at('chat/completions'), {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const samePage = await refused(preflight('https://elsewhere.example'));
    expect(samePage).toMatchObject({ status: 403, body: { error: { type: 'origin_not_allowed' } } });
    const listed = createModelProxy({
      provider: 'openai',
      apiKey: KEY,
      allow: { models: ['gpt-small'] },
      origin: ['https://app.example'],
    });
    const ok = await listed(preflight('https://app.example'));
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe('https://app.example');
    expect(ok.headers.get('access-control-allow-methods')).toBe('POST');
    const other = await listed(preflight('https://elsewhere.example'));
    expect(other.status).toBe(403);
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
    // A refusal answered to a listed origin is readable there.
    const denied = await listed(
      new Request('http://app.test/chat/completions', {
        method: 'POST',
        headers: { origin: 'https://app.example', 'content-type': 'application/json' },
        body: '{"model":"gpt-huge"}',
      }),
    );
    expect(denied.status).toBe(403);
    expect(denied.headers.get('access-control-allow-origin')).toBe('https://app.example');
  });
});

describe('createModelProxy checks its options at once', () => {
  const base: ModelProxyOptions = { provider: 'openai', apiKey: KEY, allow: { models: ['m'] } };
  it.each([
    [
      { ...base, provider: 'openia' },
      /`provider` to be 'openai', 'anthropic', 'gemini', 'ollama' or \{ baseURL, auth \}, got `'openia'`/,
    ],
    [{ ...base, apiKey: undefined }, /Expected `apiKey`: this provider takes a key/],
    [{ ...base, allow: { models: [] } }, /`allow.models` to be a non-empty list/],
    [{ ...base, allow: { models: ['m'], paths: ['../files'] } }, /each of `allow.paths`/],
    [{ ...base, origin: 'https://app.example/' }, /`origin` to hold origins/],
    [{ ...base, basePath: 'api/' }, /`basePath` to be a path/],
    [{ ...base, baseURL: '/v1' }, /`baseURL` to be an http\(s\) URL/],
    [{ ...base, maxBodyBytes: 0 }, /`maxBodyBytes` to be a positive integer/],
    [{ ...base, provider: { baseURL: 'https://x.example', auth: { header: 'bad header' } } }, /`auth` to be/],
  ] as [ModelProxyOptions, RegExp][])('%#', (options, message) => {
    expect(() => createModelProxy(options)).toThrow(message);
  });
  it('an Ollama, or a server of your own with auth none, needs no key', () => {
    expect(createModelProxy({ provider: 'ollama', allow: { models: ['m'] } })).toBeTypeOf('function');
    expect(
      createModelProxy({ provider: { baseURL: 'http://127.0.0.1:8080/v1', auth: 'none' }, allow: { models: ['m'] } }),
    ).toBeTypeOf('function');
  });
});

function chatRequest(at: string, body: Record<string, unknown>): Request {
  return new Request(at, requestInit(body));
}

function requestInit(body: Record<string, unknown>): RequestInit {
  return {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: true, ...body }),
  };
}

async function listen(server: ReturnType<typeof createServer>): Promise<string> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  cleanups.push(
    () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  );
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/**
 * An upstream that sends its first event at once and holds the rest until released: the answer
 * can only reach the client in pieces if nothing between buffers it. Each request is held anew.
 */
async function heldUpstream() {
  let release = () => {};
  let finished = false;
  let hungUp = () => {};
  const hangUps = { count: 0, next: new Promise<void>((done) => (hungUp = done)) };
  let requests = 0;
  const server = createServer((_req, res: ServerResponse) => {
    requests++;
    finished = false;
    res.on('close', () => {
      if (res.writableFinished) return;
      hangUps.count++;
      hungUp();
    });
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write('data: one\n\n');
    new Promise<void>((done) => {
      release = done;
    }).then(() => {
      res.end('data: two\n\n', () => {
        finished = true;
      });
    });
  });
  return {
    url: await listen(server),
    release: () => release(),
    finished: () => finished,
    hangUps,
    requests: () => requests,
  };
}

describe('moat-sdk/server runs beyond Node', () => {
  it("imports nothing but its own relative modules, all the way down: no 'node:' module, no package", () => {
    const seen = new Set<string>();
    const outside: string[] = [];
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      const source = readFileSync(file, 'utf8');
      for (const [, specifier] of source.matchAll(/^\s*(?:import|export)\b[^'"]*?from\s+'([^']+)'/gm)) {
        if (!specifier?.startsWith('.')) outside.push(`${relative(root, file)}: ${specifier}`);
        else visit(resolve(dirname(file), `${specifier}.ts`));
      }
    };
    visit(resolve(import.meta.dirname, 'index.ts'));
    expect(outside).toEqual([]);
    expect(seen.size).toBeGreaterThan(3);
  });
});

describe('docs/server.md', () => {
  it('shows for Node the very listener these tests serve the route with (test/node-route.ts)', () => {
    const listener = (file: string) =>
      /^export function nodeListener[\s\S]*?^}$/m.exec(readFileSync(resolve(root, file), 'utf8'))?.[0];
    expect(listener('docs/server.md')).toBeDefined();
    expect(listener('docs/server.md')).toBe(listener('test/node-route.ts'));
  });
});
