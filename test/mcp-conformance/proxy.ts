/**
 * CORS proxies in front of a conformance scenario's servers. The suite's servers send no CORS
 * headers, and Moat's client reaches its MCP server from an opaque origin (and its OAuth requests
 * go from the page), so each server gets a proxy on 127.0.0.1 that adds them.
 *
 * An OAuth scenario has two servers, the MCP server and its authorization server, which name each
 * other's URLs (resource metadata, authorization server metadata, `WWW-Authenticate`). So the
 * proxies rewrite: a server's origin in an answer becomes its proxy's (a proxy is started for
 * each local origin an answer names, the page's own aside), and a proxy's origin in a request
 * (its URL, query or body, plain or URL-encoded) becomes the server's again. Each server sees
 * its own URLs; the client sees only proxies. SSE streams pass through as they come.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
  'access-control-allow-headers':
    'content-type, accept, authorization, mcp-session-id, mcp-protocol-version, last-event-id',
  'access-control-expose-headers': 'mcp-session-id, mcp-protocol-version, www-authenticate',
  'cross-origin-resource-policy': 'cross-origin',
};

/** A local server's origin, as the suite's servers name one. */
const LOCAL_ORIGIN = /https?:\/\/(?:localhost|127\.0\.0\.1|\[::1\]):\d+/g;

export interface Proxies {
  /** The first target's URL, as reached through its proxy. */
  url: string;
  /** What passed through: one line per request and per response's end, with ms since the start. */
  log: string[];
  close(): Promise<void>;
}

/** What the log shows of a request: the JSON-RPC method(s) of a POST, the MCP headers. */
function describeRequest(req: http.IncomingMessage, body: string): string {
  const parts = [`${req.method} ${req.url}`];
  try {
    const message = JSON.parse(body) as { method?: string; id?: unknown } | { method?: string }[];
    const methods = (Array.isArray(message) ? message : [message]).map((m) => m.method ?? 'response');
    parts.push(`(${methods.join(', ')})`);
  } catch {}
  for (const header of ['mcp-protocol-version', 'mcp-session-id', 'last-event-id']) {
    const value = req.headers[header];
    if (value !== undefined) parts.push(`${header}=${value}`);
  }
  return parts.join(' ');
}

/**
 * @param target the scenario's MCP server
 * @param page the page's origin, which answers may name (a redirect URI) and which is never proxied
 */
export async function startProxies(target: URL, page: string): Promise<Proxies> {
  const log: string[] = [];
  const started = performance.now();
  const note = (line: string) => log.push(`${String(Math.round(performance.now() - started)).padStart(6)} ms  ${line}`);
  const sockets = new Set<Socket>();
  const servers: http.Server[] = [];
  /** A server's origin → its proxy's. */
  const proxied = new Map<string, Promise<string>>();

  const swap = (text: string, pairs: [string, string][]) => {
    let out = text;
    for (const [from, to] of pairs) {
      out = out.split(from).join(to);
      out = out.split(encodeURIComponent(from)).join(encodeURIComponent(to));
    }
    return out;
  };
  const pairs = async () => Promise.all([...proxied].map(async ([origin, proxy]) => [origin, await proxy] as const));
  const toServer = async (text: string) =>
    swap(
      text,
      (await pairs()).map(([origin, proxy]) => [proxy, origin]),
    );
  /** Starts a proxy for each local origin `text` names, then puts the proxies' origins in. */
  const toClient = async (text: string) => {
    for (const origin of text.match(LOCAL_ORIGIN) ?? []) if (origin !== page) proxyFor(origin);
    const known = await pairs();
    const proxies = new Set(known.map(([, proxy]) => proxy));
    return swap(
      text,
      known.filter(([origin]) => !proxies.has(origin)).map(([origin, proxy]) => [origin, proxy]),
    );
  };

  const proxyFor = (origin: string): Promise<string> => {
    let proxy = proxied.get(origin);
    if (!proxy) {
      proxy = listen(new URL(origin));
      proxied.set(origin, proxy);
    }
    return proxy;
  };

  const listen = async (upstream: URL): Promise<string> => {
    const server = http.createServer(async (req, res) => {
      if (req.method === 'OPTIONS') {
        note(`OPTIONS ${upstream.host}${req.url} (preflight) -> 204`);
        res.writeHead(204, { ...CORS, 'access-control-max-age': '600' });
        res.end();
        return;
      }
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const body = await toServer(Buffer.concat(chunks).toString('utf8'));
      const path = await toServer(req.url ?? '/');
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host };
      delete headers['content-length'];
      if (body) headers['content-length'] = Buffer.byteLength(body);
      const said = `${upstream.host} ${describeRequest(req, body)}`;
      const request = http.request(
        { hostname: upstream.hostname, port: upstream.port, method: req.method, path, headers },
        async (answer) => {
          const type = String(answer.headers['content-type'] ?? '');
          note(`${said} -> ${answer.statusCode} ${type}`);
          const out: http.OutgoingHttpHeaders = {};
          for (const [name, value] of Object.entries(answer.headers))
            if (value !== undefined && !name.startsWith('access-control-')) out[name] = value;
          for (const name of ['location', 'www-authenticate', 'link'])
            if (typeof out[name] === 'string') out[name] = await toClient(out[name] as string);
          if (type.includes('text/event-stream')) {
            res.writeHead(answer.statusCode ?? 502, { ...out, ...CORS });
            res.flushHeaders();
            answer.pipe(res);
            answer.on('close', () => {
              note(`  ${said}: response ${answer.complete ? 'ended by the server' : 'cut'}`);
              if (!answer.complete) res.destroy();
            });
            return;
          }
          const parts: Buffer[] = [];
          for await (const part of answer) parts.push(part as Buffer);
          const text = await toClient(Buffer.concat(parts).toString('utf8'));
          delete out['transfer-encoding'];
          out['content-length'] = Buffer.byteLength(text);
          res.writeHead(answer.statusCode ?? 502, { ...out, ...CORS });
          res.end(text);
        },
      );
      request.on('error', (error) => {
        note(`${said} -> proxy error: ${error.message}`);
        if (!res.headersSent) res.writeHead(502, CORS);
        res.end();
      });
      request.end(body || undefined);
      // The client let go (an SSE stream it closed): so does the proxy, upstream.
      res.on('close', () => {
        if (!res.writableFinished) {
          note(`  ${said}: the client closed the response`);
          request.destroy();
        }
      });
    });
    server.on('connection', (socket) => {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
    });
    servers.push(server);
    await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  const first = await proxyFor(target.origin);
  return {
    url: `${first}${target.pathname}${target.search}`,
    log,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await Promise.all(servers.map((server) => new Promise<void>((closed) => server.close(() => closed()))));
    },
  };
}
