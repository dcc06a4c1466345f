/**
 * An OAuth authorization server for the MCP test server's `/oauth/mcp` endpoint, on a port (an
 * origin) of its own, as real ones are: the SDK's `mcpAuthRouter` (metadata, dynamic client
 * registration, `/authorize` with PKCE, `/token`, `/revoke`), with an in-memory provider whose
 * `/authorize` approves at once (the "user" always says yes) and redirects to the client's
 * registered redirect URI with a code. Tokens are opaque; access tokens can be expired on demand
 * (`expireAccessTokens`) to make a client refresh.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import { InvalidGrantError, InvalidRequestError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import { mcpAuthRouter } from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { OAuthClientInformationFull, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import express from 'express';
import type { LoggedRequest } from './server';

/** The scope the test resource asks for first. */
export const TEST_SCOPE = 'mcp:tools';
/** The wider scope one of its tools takes. */
export const ADMIN_SCOPE = 'mcp:admin';

export interface TestAuthServer {
  /** `http://127.0.0.1:PORT`: the issuer. */
  url: string;
  /** The access token's owner, or undefined for a token it did not issue (or expired). */
  verify(token: string): AuthInfo | undefined;
  /** Every access token issued so far stops working; refresh tokens still work. */
  expireAccessTokens(): void;
  /** Every request that reached it, oldest first (cleared with `forget`). */
  log: LoggedRequest[];
  /** Forgets clients, codes, tokens and the log. */
  forget(): void;
  close(): Promise<void>;
}

interface Grant {
  clientId: string;
  scopes: string[];
  resource?: URL;
}

class TestProvider implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly codes = new Map<string, Grant & { params: AuthorizationParams }>();
  readonly access = new Map<string, Grant>();
  readonly refresh = new Map<string, Grant>();

  readonly clientsStore: OAuthRegisteredClientsStore = {
    getClient: async (id) => this.clients.get(id),
    registerClient: async (client) => {
      // The router has given it an id (and no secret, for `token_endpoint_auth_method: none`).
      const registered = client as OAuthClientInformationFull;
      this.clients.set(registered.client_id, registered);
      return registered;
    },
  };

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: express.Response) {
    if (!client.redirect_uris.includes(params.redirectUri)) throw new InvalidRequestError('Unregistered redirect_uri');
    const code = randomUUID();
    const grant: Grant = { clientId: client.client_id, scopes: params.scopes ?? [] };
    if (params.resource) grant.resource = params.resource;
    this.codes.set(code, { ...grant, params });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(target.href);
  }

  async challengeForAuthorizationCode(_client: OAuthClientInformationFull, code: string) {
    const grant = this.codes.get(code);
    if (!grant) throw new InvalidGrantError('Unknown authorization code');
    return grant.params.codeChallenge;
  }

  async exchangeAuthorizationCode(client: OAuthClientInformationFull, code: string): Promise<OAuthTokens> {
    const grant = this.codes.get(code);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('Unknown authorization code');
    this.codes.delete(code);
    return this.#issue({
      clientId: grant.clientId,
      scopes: grant.scopes,
      ...(grant.resource ? { resource: grant.resource } : {}),
    });
  }

  async exchangeRefreshToken(client: OAuthClientInformationFull, token: string): Promise<OAuthTokens> {
    const grant = this.refresh.get(token);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('Unknown refresh token');
    this.refresh.delete(token);
    return this.#issue(grant);
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.access.get(token);
    if (!grant) throw new InvalidGrantError('Unknown or expired access token');
    return {
      token,
      clientId: grant.clientId,
      scopes: grant.scopes,
      ...(grant.resource ? { resource: grant.resource } : {}),
    };
  }

  #issue(grant: Grant): OAuthTokens {
    const access = randomUUID();
    const refresh = randomUUID();
    this.access.set(access, grant);
    this.refresh.set(refresh, grant);
    return {
      access_token: access,
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: refresh,
      scope: grant.scopes.join(' '),
    };
  }
}

/** Starts it on a free port. */
export async function startTestAuthServer(): Promise<TestAuthServer> {
  const provider = new TestProvider();
  const log: LoggedRequest[] = [];
  const app = express();
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  app.use((req, _res, next) => {
    const query = req.path === '/authorize' ? { query: req.url.slice(req.url.indexOf('?')) } : {};
    log.push({ method: req.method, path: req.path, origin: req.headers.origin ?? null, ...query });
    next();
  });
  const noLimit = { rateLimit: false } as const;
  app.use(
    mcpAuthRouter({
      provider,
      issuerUrl: new URL(url),
      scopesSupported: [TEST_SCOPE, ADMIN_SCOPE],
      authorizationOptions: noLimit,
      tokenOptions: noLimit,
      clientRegistrationOptions: noLimit,
      revocationOptions: noLimit,
    }),
  );
  return {
    url,
    verify: (token) => {
      const grant = provider.access.get(token);
      return grant && { token, clientId: grant.clientId, scopes: grant.scopes };
    },
    expireAccessTokens: () => provider.access.clear(),
    log,
    forget: () => {
      for (const map of [provider.clients, provider.codes, provider.access, provider.refresh]) map.clear();
      log.length = 0;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
