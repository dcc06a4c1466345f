/**
 * A fetch handler served by `node:http`: the adapter docs/server.md shows for Node, line for
 * line, so that what the docs tell a Node user to write is what the tests run.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** A `node:http` listener that hands each request to `handler` and streams its answer back. */
export function nodeListener(handler: (request: Request) => Promise<Response>) {
  return async (req: IncomingMessage, res: ServerResponse) => {
    const hangUp = new AbortController();
    res.on('close', () => hangUp.abort()); // the client went away: the handler's fetch stops too
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      for (const v of [value ?? []].flat()) headers.append(name, v);
    const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
    // Node asks `duplex: 'half'` of a streamed body; TypeScript's DOM types do not list it yet.
    const init: RequestInit & { duplex: 'half' } = {
      method: req.method ?? 'GET',
      headers,
      body: hasBody ? (Readable.toWeb(req) as ReadableStream<Uint8Array>) : null,
      duplex: 'half',
      signal: hangUp.signal,
    };
    let request: Request;
    try {
      // The path on a fixed origin: the client's Host header is not trusted to make a URL.
      request = new Request(new URL(req.url ?? '/', 'http://localhost'), init);
    } catch {
      // A method fetch refuses (TRACE, CONNECT), a path that is no URL: a bad request, not a crash.
      return void res.writeHead(400).end();
    }
    const response = await handler(request);
    res.writeHead(response.status, Object.fromEntries(response.headers));
    if (!response.body) return void res.end();
    // A client that hangs up ends the copy early: that is not an error of the server's.
    await pipeline(Readable.fromWeb(response.body as import('node:stream/web').ReadableStream), res).catch(() => {});
  };
}

/** `handler` on 127.0.0.1 (a free port), for a test. */
export async function serveRoute(
  handler: (request: Request) => Promise<Response>,
): Promise<{ url: string; server: Server; close(): Promise<void> }> {
  const server = createServer(nodeListener(handler));
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    server,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
