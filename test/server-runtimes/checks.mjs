/**
 * The by-hand check of moat-sdk/server outside Node (Deno, Bun, workerd): not part of `npm test`,
 * which has none of those runtimes. Each runner serves `upstream` and the route in its runtime and
 * calls `check`, which throws on the first thing that is not as in Node's tests.
 */

export const KEY = 'sk-runtime-check';

/** A provider that sends its first event at once and holds the second until released. */
export function heldUpstream() {
  let release = () => {};
  const state = { finished: false, seen: [] };
  const handler = (request) => {
    state.seen.push({
      path: new URL(request.url).pathname + new URL(request.url).search,
      authorization: request.headers.get('authorization'),
      cookie: request.headers.get('cookie'),
    });
    const held = new Promise((done) => {
      release = done;
    });
    const body = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('data: one\n\n'));
        held.then(() => {
          controller.enqueue(new TextEncoder().encode('data: two\n\n'));
          controller.close();
          state.finished = true;
        });
      },
    });
    return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
  };
  return { handler, state, release: () => release() };
}

/** The route's options for an upstream at `url` (the same in every runner). */
export const routeOptions = (url) => ({
  provider: { baseURL: `${url}/v1` },
  apiKey: KEY,
  allow: { models: ['m'] },
  basePath: '/api/model',
});

/** Ask the route at `url`: a streamed answer, then a model it does not allow. */
export async function check(url, upstream) {
  const post = (model) =>
    fetch(`${url}/api/model/chat/completions?key=page-key`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer page-token', cookie: 'session=page' },
      body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hi' }], stream: true }),
      // A route that buffered would never give the first piece: fail, do not hang.
      signal: AbortSignal.timeout(10_000),
    });
  const answer = await post('m');
  const reader = answer.body.getReader();
  const first = new TextDecoder().decode((await reader.read()).value);
  const finishedAtFirst = upstream.state.finished;
  upstream.release();
  let rest = '';
  for (let r = await reader.read(); !r.done; r = await reader.read()) rest += new TextDecoder().decode(r.value);
  const refused = await post('other');
  const result = {
    status: answer.status,
    first,
    finishedAtFirst,
    rest,
    upstream: upstream.state.seen,
    refused: refused.status,
    refusal: (await refused.json()).error.type,
  };
  const expected = {
    status: 200,
    first: 'data: one\n\n',
    finishedAtFirst: false,
    rest: 'data: two\n\n',
    upstream: [{ path: '/v1/chat/completions', authorization: `Bearer ${KEY}`, cookie: null }],
    refused: 403,
    refusal: 'model_not_allowed',
  };
  if (JSON.stringify(result) !== JSON.stringify(expected))
    throw new Error(
      `Not as in Node:\n${JSON.stringify(result, null, 2)}\nexpected\n${JSON.stringify(expected, null, 2)}`,
    );
  return result;
}
