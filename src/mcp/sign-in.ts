/**
 * Signing in to an MCP server after it refused a request: the official SDK's `auth()`, run on the
 * page (the sealed client only ever gets the access token, as a header). It refreshes the tokens,
 * or finds the authorization server (from the refusal's resource metadata), registers, and sends
 * the user to sign in; a 403 `insufficient_scope` asks the user again for the scope it names.
 *
 * Once at a time: calls refused together share one sign-in, and tabs share one by a Web Lock; a
 * refusal of a token that another sign-in has replaced since just tries again.
 */
import { McpConnectionError } from '../errors/mcp-connection-error';
import type { WireFailure } from './protocol';

/** Tokens, as an authorization server issues them (RFC 6749 §5.1). */
export interface McpOAuthTokens {
  access_token: string;
  token_type: string;
  expires_in?: number | undefined;
  refresh_token?: string | undefined;
  scope?: string | undefined;
  [field: string]: unknown;
}

/** What the authorization server knows this app by: its registration (`client_id`, and more). */
export interface McpOAuthClient {
  client_id: string;
  [field: string]: unknown;
}

/**
 * The official SDK's `OAuthClientProvider`, the parts mcpServer uses: a provider written for the
 * SDK fits as it is. `browserOAuth()` makes one.
 */
export interface McpAuthProvider {
  readonly redirectUrl: string | URL | undefined;
  readonly clientMetadata: { redirect_uris: string[]; [field: string]: unknown };
  clientMetadataUrl?: string;
  state?(): string | Promise<string>;
  clientInformation(): McpOAuthClient | undefined | Promise<McpOAuthClient | undefined>;
  saveClientInformation?(client: McpOAuthClient): void | Promise<void>;
  tokens(): McpOAuthTokens | undefined | Promise<McpOAuthTokens | undefined>;
  saveTokens(tokens: McpOAuthTokens): void | Promise<void>;
  redirectToAuthorization(authorizationUrl: URL): void | Promise<void>;
  saveCodeVerifier(codeVerifier: string): void | Promise<void>;
  codeVerifier(): string | Promise<string>;
  invalidateCredentials?(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): void | Promise<void>;
}

/** Where `browserOAuth()` providers say which server they keep tokens for. */
export const OAUTH_SERVER = Symbol('moat.oauth.server');

type Challenge = NonNullable<WireFailure['challenge']>;

/** Each refusal's `WWW-Authenticate`, kept with its error (not in a field that concurrent refusals share). */
const challenges = new WeakMap<McpConnectionError, Challenge>();

/** `error`, remembering what the refusal asked for. */
export function withChallenge(error: McpConnectionError, challenge: WireFailure['challenge']): McpConnectionError {
  if (challenge) challenges.set(error, challenge);
  return error;
}

/**
 * The requests of a sign-in leave the page without its cookies: the MCP server names the URLs
 * (its metadata, and the authorization server's), and one naming this app's own origin must not
 * get a request with the app's credentials.
 */
export const anonymousFetch: typeof fetch = (input, init) => fetch(input, { ...init, credentials: 'omit' });

export class SignIn {
  readonly #url: URL;
  readonly #provider: McpAuthProvider;
  #flight: Promise<void> | undefined;

  constructor(url: URL, provider: McpAuthProvider) {
    this.#url = url;
    this.#provider = provider;
  }

  /** The access token requests carry now, if there is one. */
  async token(): Promise<string | undefined> {
    return (await this.#provider.tokens())?.access_token;
  }

  /**
   * Whether to try a refused request again: true once signed in, if `error` is a refusal signing
   * in can answer (401, or 403 `insufficient_scope`). `used` is the token the request went with.
   * Rejects with `McpConnectionError` (reason `unauthorized`) when signing in fails or has only
   * begun (the user went to sign in on this page).
   */
  async after(error: unknown, used: string | undefined): Promise<boolean> {
    if (!(error instanceof McpConnectionError)) return false;
    const challenge = challenges.get(error);
    const stepUp = error.status === 403 && challenge?.error === 'insufficient_scope';
    if (error.status !== 401 && !stepUp) return false;
    this.#flight ??= this.#locked(() => this.#signIn(used, challenge, stepUp)).finally(() => {
      this.#flight = undefined;
    });
    await this.#flight;
    return true;
  }

  #locked(run: () => Promise<void>): Promise<void> {
    const locks = typeof navigator === 'undefined' ? undefined : navigator.locks;
    return locks ? locks.request(`moat-oauth ${this.#url.href}`, () => run()).then(() => undefined) : run();
  }

  async #signIn(used: string | undefined, challenge: Challenge | undefined, stepUp: boolean): Promise<void> {
    const url = this.#url.href;
    const now = await this.token();
    // Another sign-in (a call refused at the same time, another tab) has replaced that token.
    if (now !== undefined && now !== used) return;
    const fail = (message: string, cause?: unknown) =>
      new McpConnectionError({ url, reason: 'unauthorized', message, ...(cause === undefined ? {} : { cause }) });
    try {
      // A refresh keeps the scope it had: a wider one needs the user again.
      if (stepUp) await this.#provider.invalidateCredentials?.('tokens');
      const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
      await auth(this.#provider as unknown as Parameters<typeof auth>[0], {
        serverUrl: this.#url,
        fetchFn: anonymousFetch,
        ...(challenge?.resourceMetadataUrl ? { resourceMetadataUrl: new URL(challenge.resourceMetadataUrl) } : {}),
        ...(challenge?.scope ? { scope: challenge.scope } : {}),
      });
    } catch (error) {
      if (error instanceof McpConnectionError) throw error;
      throw fail(
        `Could not sign in to the MCP server ${url}: ${error instanceof Error ? error.message : error}`,
        error,
      );
    }
    const after = await this.token();
    if (after === undefined)
      throw fail(
        `Signing in to the MCP server at ${url} has begun: once the redirect page has called \`finishOAuth()\`, call again`,
      );
    if (after === used) throw fail(`The MCP server at ${url} refused its access token, and signing in gave no other`);
  }
}
