/**
 * OAuth for an MCP server: the test server's `/oauth/mcp` and its authorization server (on another
 * origin, the SDK's own router). The sign-in runs as a user's would: a popup to `/authorize`, the
 * redirect to test/mcp-oauth/callback.html, which calls `finishOAuth()`.
 */
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { afterEach, beforeEach, describe, expect, inject, it, vi } from 'vitest';
import { McpConnectionError } from '../errors/mcp-connection-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import type { ToolMessage } from '../messages/types';
import { type McpServer, mcpServer } from './mcp-server';
import { type BrowserOAuth, type BrowserOAuthOptions, browserOAuth, finishOAuth, type McpAuthProvider } from './oauth';

// The SDK's providers fit where Moat takes one, and Moat's is one of the SDK's.
const sdkFits: McpAuthProvider = {} as OAuthClientProvider;
const oursFits: OAuthClientProvider = {} as BrowserOAuth;
void [sdkFits, oursFits];

const base = inject('mcpServerUrl');
const url = `${base}/oauth/mcp`;
const redirectUrl = new URL('/test/mcp-oauth/callback.html', location.href).href;
const servers: McpServer[] = [];
const providers: BrowserOAuth[] = [];

function connect(options: Partial<BrowserOAuthOptions> = {}) {
  const authProvider = browserOAuth({ url, redirectUrl, ...options });
  const server = mcpServer({ url, authProvider });
  servers.push(server);
  providers.push(authProvider);
  return { server, authProvider };
}

type Logged = { method: string; path: string; origin: string | null; jsonrpcMethod?: string; query?: string };
const getJson = async (path: string) => (await (await fetch(`${base}${path}`)).json()) as Logged[];
/** The query of each request to /authorize (each sign-in window), oldest first. */
const authorizations = async () =>
  (await getJson('/__oauth/log')).flatMap((r) => (r.query ? [new URLSearchParams(r.query)] : []));

/** What the next redirect page's finishOAuth says (test/mcp-oauth/callback.ts tells). */
function nextCallback(): Promise<unknown> {
  const channel = new BroadcastChannel('moat-oauth-test-callback');
  return new Promise((resolve) => {
    channel.onmessage = ({ data }) => {
      channel.close();
      resolve(data);
    };
  });
}

async function echo(server: McpServer, text: string): Promise<ToolMessage> {
  const invoker = new ToolInvoker({ tools: [server], onError: 'throw' });
  const { messages } = await invoker.run([{ id: `c-${text}`, name: 'echo', args: { text } }]);
  return messages[0] as ToolMessage;
}

beforeEach(async () => {
  await fetch(`${base}/__reset`, { method: 'POST' });
});

afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(providers.splice(0).map((p) => p.signOut()));
  vi.restoreAllMocks();
});

describe('signing in', () => {
  it('a 401 opens the sign-in window; once the redirect page finishes, the call goes on with the token', async () => {
    const opened = vi.spyOn(window, 'open');
    const { server, authProvider } = connect();
    const callback = nextCallback();
    expect((await server.specs()).map((s) => s.name)).toContain('echo');
    // The redirect page knows it is the popup, to close.
    expect(await callback).toEqual({ url, popup: true });
    expect(opened).toHaveBeenCalledOnce();
    // Opened blank, cut from this page, then sent to /authorize.
    expect(opened.mock.calls[0]?.[0]).toBe('about:blank');
    const [authorize] = await authorizations();
    expect(Object.fromEntries(authorize ?? [])).toMatchObject({
      response_type: 'code',
      code_challenge_method: 'S256',
      redirect_uri: redirectUrl,
      resource: url,
      scope: 'mcp:tools',
    });
    expect((await echo(server, 'signed')).content).toBe('echo: signed');
    expect((await authProvider.tokens())?.access_token).toEqual(expect.any(String));
    // The verifier and state of the finished sign-in are gone.
    await expect(authProvider.codeVerifier()).rejects.toThrow(/No sign-in/);
  });

  it('the sealed client talks to the MCP server only; discovery, registration and tokens go from the page', async () => {
    const { server } = connect();
    await echo(server, 'who');
    const mcp = await getJson('/__log');
    const sealed = mcp.filter((r) => r.path === '/oauth/mcp');
    expect(sealed.length).toBeGreaterThan(0);
    expect(new Set(sealed.map((r) => r.origin))).toEqual(new Set(['null']));
    // The page's own fetch of the resource metadata carries its origin.
    expect(mcp.filter((r) => r.path.startsWith('/.well-known/')).map((r) => r.origin)).toEqual([location.origin]);
    const auth = await getJson('/__oauth/log');
    expect(auth.map((r) => r.path)).toEqual(
      expect.arrayContaining(['/.well-known/oauth-authorization-server', '/register', '/authorize', '/token']),
    );
    // /authorize is the popup's navigation (no Origin); the rest is the page's fetches.
    expect(new Set(auth.filter((r) => r.path !== '/authorize').map((r) => r.origin))).toEqual(
      new Set([location.origin]),
    );
  });

  it('tokens are kept in IndexedDB: another server object (a reload) signs in without a window', async () => {
    await echo(connect().server, 'first');
    const opened = vi.spyOn(window, 'open');
    await fetch(`${base}/__oauth/expire`, { method: 'POST' }).then(() => undefined);
    // Expired, the token is refreshed from the saved refresh token: still no window.
    const again = mcpServer({ url, authProvider: browserOAuth({ url, redirectUrl }) });
    servers.push(again);
    expect((await echo(again, 'later')).content).toBe('echo: later');
    expect(opened).not.toHaveBeenCalled();
  });

  it('an access token that expires mid-session is refreshed, and the refused call runs once, in the same session', async () => {
    const { server } = connect();
    await echo(server, 'before');
    const seen = (await getJson('/__log')).length;
    await fetch(`${base}/__oauth/expire`, { method: 'POST' });
    const opened = vi.spyOn(window, 'open');
    expect((await echo(server, 'after')).content).toBe('echo: after');
    expect(opened).not.toHaveBeenCalled();
    const since = (await getJson('/__log')).slice(seen).filter((r) => r.method === 'POST');
    // The refused call, then the same call with the new token, in the session it had.
    expect(since.map((r) => r.jsonrpcMethod)).toEqual(['tools/call', 'tools/call']);
    const tokens = (await getJson('/__oauth/log')).filter((r) => r.path === '/token');
    expect(tokens).toHaveLength(2);
  });

  it('a 403 insufficient_scope asks the user again, for the scope the server named, and the call runs', async () => {
    const opened = vi.spyOn(window, 'open');
    const { server } = connect();
    await echo(server, 'narrow');
    const invoker = new ToolInvoker({ tools: [server], onError: 'throw' });
    const { messages } = await invoker.run([{ id: 'wide', name: 'add', args: { a: 2, b: 3 } }]);
    expect(messages[0]?.content).toBe('5');
    expect(opened).toHaveBeenCalledTimes(2);
    const scopes = (await authorizations()).map((query) => query.get('scope'));
    expect(scopes).toEqual(['mcp:tools', 'mcp:tools mcp:admin']);
  });

  it('a new redirectUrl registers the app again (its registration names the old one)', {
    timeout: 20_000,
  }, async () => {
    await echo(connect().server, 'old');
    const moved = `${redirectUrl}?moved`;
    const { server, authProvider } = connect({ redirectUrl: moved });
    await authProvider.invalidateCredentials?.('tokens');
    const opened = vi.spyOn(window, 'open');
    expect((await echo(server, 'moved')).content).toBe('echo: moved');
    expect(opened).toHaveBeenCalledOnce();
    expect((await authorizations()).map((query) => query.get('redirect_uri'))).toEqual([redirectUrl, moved]);
    const registered = (await getJson('/__oauth/log')).filter((r) => r.path === '/register' && r.method === 'POST');
    expect(registered).toHaveLength(2);
  });

  it('calls refused together share one sign-in: one refresh, one window for a wider scope', async () => {
    const { server } = connect();
    await echo(server, 'first');
    await fetch(`${base}/__oauth/expire`, { method: 'POST' });
    const invoker = new ToolInvoker({ tools: [server], onError: 'throw' });
    const calls = (name: string, args: Record<string, unknown>) =>
      invoker.run([1, 2, 3].map((n) => ({ id: `${name}-${n}`, name, args })));
    const refreshed = await calls('echo', { text: 'again' });
    expect(refreshed.messages.map((m) => m.content)).toEqual(['echo: again', 'echo: again', 'echo: again']);
    const tokens = (await getJson('/__oauth/log')).filter((r) => r.path === '/token' && r.method === 'POST');
    expect(tokens).toHaveLength(2); // the sign-in's, and one refresh for all three
    const opened = vi.spyOn(window, 'open');
    const wide = await calls('add', { a: 1, b: 1 });
    expect(wide.messages.map((m) => m.content)).toEqual(['2', '2', '2']);
    expect(opened).toHaveBeenCalledOnce();
  });

  it('close() while signing in: the waiting call fails as closed, and does not connect again', async () => {
    let resume: (() => void) | undefined;
    const { server, authProvider } = connect({
      // The user signs in only after the app has closed the server.
      open: async (authorization) => {
        await new Promise<void>((go) => {
          resume = go;
        });
        const finished = nextCallback();
        window.open(authorization, 'moat-oauth-test', 'popup');
        await finished;
      },
    });
    const listing = server.specs();
    await vi.waitFor(() => expect(resume).toBeDefined());
    await server.close();
    const connects = async () => (await getJson('/__log')).filter((r) => r.jsonrpcMethod === 'initialize').length;
    const before = await connects();
    resume?.();
    await expect(listing).rejects.toMatchObject({ reason: 'closed' });
    // Signed in all the same (the tokens are kept), but nothing connected.
    expect(await authProvider.tokens()).toBeDefined();
    expect(await connects()).toBe(before);
  });

  it('signOut forgets the tokens: the next use signs in again', async () => {
    const { server, authProvider } = connect();
    await echo(server, 'in');
    await authProvider.signOut();
    await server.close();
    expect(await authProvider.tokens()).toBeUndefined();
    const opened = vi.spyOn(window, 'open');
    expect((await echo(server, 'again')).content).toBe('echo: again');
    expect(opened).toHaveBeenCalledOnce();
  });
});

describe('when signing in does not finish', () => {
  it('`open` as a function: the call fails, saying sign-in has begun; finishOAuth on the answer, and the next call works', async () => {
    const urls: URL[] = [];
    const { server, authProvider } = connect({ open: (authorization) => void urls.push(authorization) });
    const error = await server.specs().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpConnectionError);
    expect(error).toMatchObject({ reason: 'unauthorized', message: expect.stringContaining('finishOAuth') });
    expect(await authProvider.tokens()).toBeUndefined();
    // The app's own way: a window of its choosing, which lands on the callback page.
    const callback = nextCallback();
    window.open(urls[0], 'moat-oauth-test', 'popup');
    expect(await callback).toEqual({ url, popup: false });
    expect(await authProvider.tokens()).toBeDefined();
    expect((await echo(server, 'now')).content).toBe('echo: now');
  });

  it('the authorization server refused: finishOAuth and the waiting call fail with its error', async () => {
    let state = '';
    const { server } = connect({
      open: (authorization) => {
        state = authorization.searchParams.get('state') ?? '';
      },
    });
    await expect(server.specs()).rejects.toThrow(/has begun/);
    const refused = `${redirectUrl}?error=access_denied&error_description=the+user+said+no&state=${state}`;
    await expect(finishOAuth(refused)).rejects.toMatchObject({
      name: 'McpConnectionError',
      url,
      reason: 'unauthorized',
      message: expect.stringContaining('access_denied (the user said no)'),
    });
    // The state is spent: the same answer again finds nothing waiting.
    await expect(finishOAuth(refused)).rejects.toThrow(/No sign-in waits for this answer/);
  });

  it('a popup flow that the redirect page reports failed rejects the call with that error', async () => {
    const { server } = connect();
    // The window opens, but the answer is a refusal.
    const sent = {
      opener: window as Window | null,
      location: {
        set href(target: string) {
          const state = new URL(target).searchParams.get('state');
          void finishOAuth(`${redirectUrl}?error=access_denied&state=${state}`).catch(() => {});
        },
      },
    };
    vi.spyOn(window, 'open').mockReturnValue(sent as unknown as Window);
    await expect(server.specs()).rejects.toMatchObject({
      reason: 'unauthorized',
      message: expect.stringContaining('access_denied'),
    });
    // The window was cut from this page before it went anywhere.
    expect(sent.opener).toBeNull();
  });

  it('signed out while the window is open: the redirect page finds no sign-in, and the waiting call hears it at once', async () => {
    const { server, authProvider } = connect();
    vi.spyOn(window, 'open').mockReturnValue({
      opener: null,
      location: {
        set href(target: string) {
          const state = new URL(target).searchParams.get('state');
          void authProvider
            .signOut()
            .then(() => finishOAuth(`${redirectUrl}?code=c&state=${state}`))
            .catch(() => {});
        },
      },
    } as unknown as Window);
    await expect(server.specs()).rejects.toMatchObject({
      reason: 'unauthorized',
      message: expect.stringContaining('signed out already'),
    });
  });

  it('a blocked window: the call fails at once, saying so', async () => {
    vi.spyOn(window, 'open').mockReturnValue(null);
    const { server } = connect();
    await expect(server.specs()).rejects.toMatchObject({
      reason: 'unauthorized',
      message: expect.stringContaining('was blocked'),
    });
  });

  it('finishOAuth with a state nobody waits for', async () => {
    await expect(finishOAuth(`${redirectUrl}?code=x&state=nobody`)).rejects.toBeInstanceOf(McpConnectionError);
    await expect(finishOAuth(`${redirectUrl}?code=x`)).rejects.toThrow(/No sign-in waits/);
  });
});

describe('options', () => {
  it('are checked when made', () => {
    expect(() => browserOAuth({ url, redirectUrl: 'https://elsewhere.example/cb' })).toThrow(/this page's origin/);
    expect(() => browserOAuth({ url: 'ftp://x', redirectUrl })).toThrow(TypeError);
    expect(() => browserOAuth({ url, redirectUrl, open: 'tab' as 'page' })).toThrow(/`open`/);
    const authProvider = browserOAuth({ url, redirectUrl });
    expect(() => mcpServer({ url, authProvider, headers: { authorization: 'Bearer x' } })).toThrow(/not both/);
    expect(() => mcpServer({ url, authProvider: {} as McpAuthProvider })).toThrow(/OAuth client provider/);
    // A provider keeps one server's tokens: another server does not get them.
    expect(() => mcpServer({ url: `${base}/mcp`, authProvider })).toThrow(/keeps the tokens of .*oauth\/mcp/);
  });

  it('a server without authProvider says how to give credentials', async () => {
    const server = mcpServer({ url });
    servers.push(server);
    await expect(server.specs()).rejects.toMatchObject({
      status: 401,
      message: expect.stringContaining('authProvider'),
    });
  });
});
