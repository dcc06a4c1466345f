/**
 * OAuth for MCP servers, in the browser. `browserOAuth({ url, redirectUrl })` is a provider in the
 * official SDK's shape (`OAuthClientProvider`) that keeps the client's registration, the tokens
 * and a sign-in's PKCE verifier in IndexedDB, on the page's origin (where the sealed tools cannot
 * reach). `finishOAuth()` runs on the redirect page: it trades the code for tokens.
 *
 * The flow itself (discovery, registration, the code exchange, refreshes) is the SDK's `auth()`,
 * run on the page by mcpServer: see sign-in.ts, which also says what a provider is.
 */
import { openDB } from 'idb';
import { McpConnectionError } from '../errors/mcp-connection-error';
import { describeValue } from '../errors/moat-error';
import { checkHttpUrl } from '../errors/option-checks';
import { onceUntilFailure } from '../frame/once-until-failure';
import { isPlainObject } from '../json/json-value';
import {
  anonymousFetch,
  type McpAuthProvider,
  type McpOAuthClient,
  type McpOAuthTokens,
  OAUTH_SERVER,
} from './sign-in';

export type { McpAuthProvider, McpOAuthClient, McpOAuthTokens } from './sign-in';

export interface BrowserOAuthOptions {
  /** The MCP server the tokens are for: its URL, as given to `mcpServer`. */
  url: string | URL;
  /** Your page that the authorization server sends the user back to; it calls `finishOAuth()`. Same origin as this page. */
  redirectUrl: string | URL;
  /** The name the authorization server shows the user. Default: the page's title, else its host. */
  clientName?: string;
  /**
   * Where your app publishes its client metadata (an https URL: a Client ID Metadata Document).
   * Authorization servers that take one use it as the client id, instead of registering the app.
   */
  clientMetadataUrl?: string;
  /**
   * How the user is sent to sign in. `'popup'` (the default): a window, and the call waits until
   * the redirect page has finished (at most 5 minutes); browsers block windows not opened from a
   * click, so start the first call from one. `'page'`: this page goes there, and comes back to
   * `redirectUrl`. A function: your own way.
   */
  open?: 'popup' | 'page' | ((authorizationUrl: URL) => void | Promise<void>);
}

/** A provider that keeps its state in IndexedDB. */
export interface BrowserOAuth extends McpAuthProvider {
  /** Forgets the tokens and the registration: the next call signs in again. */
  signOut(): Promise<void>;
}

/** How the app signs in to one server: its options, as last given. */
interface Config {
  redirectUrl: string;
  clientName: string;
  clientMetadataUrl?: string;
}

/** What is kept for one MCP server, under its URL: the config, and the sign-in's state. */
interface Saved extends Config {
  client?: McpOAuthClient;
  tokens?: McpOAuthTokens;
  verifier?: string;
  /** The `state` of the sign-in under way: finishOAuth finds the server by it. */
  state?: string;
  /** Whether that sign-in went by popup (its redirect page then closes). */
  popup?: boolean;
  discovery?: unknown;
}

const DB = 'moat-oauth';
const STORE = 'servers';
/** Where finishOAuth tells a waiting popup flow it is done (same origin only). */
const CHANNEL = 'moat-oauth';
const POPUP_WAIT_MS = 5 * 60_000;

/** Opened when first needed; after a failure, the next use tries again. */
const database = onceUntilFailure(() =>
  openDB(DB, 1, {
    upgrade: (made) => {
      made.createObjectStore(STORE);
    },
  }),
);

async function read(key: string): Promise<Saved | undefined> {
  return (await database()).get(STORE, key) as Promise<Saved | undefined>;
}

/** Edits what is kept for `key`, the config written over it (the redirect URL the sign-in used, say). */
async function change(key: string, config: Config, edit: (saved: Saved) => void): Promise<void> {
  const tx = (await database()).transaction(STORE, 'readwrite');
  const stored = (await tx.store.get(key)) as Saved | undefined;
  const saved: Saved = { ...stored, ...config };
  // A registration names its redirect URL: with another, the app registers again.
  if (stored && stored.redirectUrl !== config.redirectUrl) delete saved.client;
  edit(saved);
  await Promise.all([tx.store.put(saved, key), tx.done]);
}

/**
 * @example
 * const url = 'https://mcp.example.com/mcp';
 * const server = mcpServer({ url, authProvider: browserOAuth({ url, redirectUrl: '/oauth-callback.html' }) });
 * // oauth-callback.html: await finishOAuth(); window.close();
 */
export function browserOAuth(options: BrowserOAuthOptions): BrowserOAuth {
  if (!isPlainObject(options)) throw new TypeError(`Expected browserOAuth options, got ${describeValue(options)}`);
  const url = checkHttpUrl(options.url, '`url`');
  const redirectUrl = checkHttpUrl(options.redirectUrl, '`redirectUrl`', location.href);
  if (redirectUrl.origin !== location.origin)
    throw new TypeError(`Expected \`redirectUrl\` on this page's origin (${location.origin}), got ${redirectUrl.href}`);
  const { open = 'popup' } = options;
  if (open !== 'popup' && open !== 'page' && typeof open !== 'function')
    throw new TypeError(`Expected \`open\` to be 'popup', 'page' or a function, got ${describeValue(open)}`);
  const clientName = options.clientName ?? (document.title || location.host);
  const { clientMetadataUrl } = options;
  if (clientMetadataUrl !== undefined && checkHttpUrl(clientMetadataUrl, '`clientMetadataUrl`').protocol !== 'https:')
    throw new TypeError(`Expected \`clientMetadataUrl\` to be an https URL, got ${describeValue(clientMetadataUrl)}`);
  return new Provider(url.href, configOf({ redirectUrl: redirectUrl.href, clientName, clientMetadataUrl }), open);
}

/** A config with no `clientMetadataUrl` key when there is none (the SDK's provider type has no room for undefined). */
function configOf({
  redirectUrl,
  clientName,
  clientMetadataUrl,
}: Omit<Config, 'clientMetadataUrl'> & { clientMetadataUrl?: string | undefined }): Config {
  return clientMetadataUrl === undefined ? { redirectUrl, clientName } : { redirectUrl, clientName, clientMetadataUrl };
}

class Provider implements BrowserOAuth {
  readonly #key: string;
  readonly #config: Config;
  readonly #open: NonNullable<BrowserOAuthOptions['open']>;
  /** There only when given: the SDK's type has no room for `undefined`. */
  declare readonly clientMetadataUrl?: string;
  /** The server whose tokens these are: mcpServer checks that it is its own. */
  readonly [OAUTH_SERVER]: string;

  constructor(key: string, config: Config, open: NonNullable<BrowserOAuthOptions['open']>) {
    this.#key = key;
    this.#config = config;
    this.#open = open;
    this[OAUTH_SERVER] = key;
    if (config.clientMetadataUrl !== undefined) Object.assign(this, { clientMetadataUrl: config.clientMetadataUrl });
  }

  get redirectUrl(): string {
    return this.#config.redirectUrl;
  }

  get clientMetadata() {
    return {
      client_name: this.#config.clientName,
      redirect_uris: [this.#config.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      // A page keeps no secret: a public client, with PKCE.
      token_endpoint_auth_method: 'none',
    };
  }

  async state(): Promise<string> {
    const state = crypto.randomUUID();
    await this.#change((saved) => {
      saved.state = state;
    });
    return state;
  }

  async clientInformation() {
    const saved = await read(this.#key);
    return saved?.redirectUrl === this.#config.redirectUrl ? saved.client : undefined;
  }

  async saveClientInformation(client: McpOAuthClient) {
    await this.#change((saved) => {
      saved.client = client;
    });
  }

  async tokens() {
    return (await read(this.#key))?.tokens;
  }

  async saveTokens(tokens: McpOAuthTokens) {
    await this.#change((saved) => {
      saved.tokens = tokens;
    });
  }

  async saveCodeVerifier(verifier: string) {
    await this.#change((saved) => {
      saved.verifier = verifier;
    });
  }

  async codeVerifier() {
    const verifier = (await read(this.#key))?.verifier;
    if (verifier === undefined) throw new Error('No sign-in is under way for this server (no PKCE verifier saved)');
    return verifier;
  }

  async saveDiscoveryState(state: unknown) {
    await this.#change((saved) => {
      saved.discovery = state;
    });
  }

  async discoveryState() {
    return (await read(this.#key))?.discovery;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery') {
    await this.#change((saved) => {
      if (scope === 'all' || scope === 'client') delete saved.client;
      if (scope === 'all' || scope === 'tokens') delete saved.tokens;
      if (scope === 'all' || scope === 'verifier') delete saved.verifier;
      if (scope === 'all' || scope === 'discovery') delete saved.discovery;
    });
  }

  async signOut() {
    await (await database()).delete(STORE, this.#key);
  }

  async redirectToAuthorization(authorizationUrl: URL) {
    const open = this.#open;
    let state = '';
    await this.#change((saved) => {
      saved.popup = open === 'popup';
      state = saved.state ?? '';
    });
    if (open === 'page') return location.assign(authorizationUrl);
    if (typeof open === 'function') return open(authorizationUrl);
    const finished = finishedElsewhere(state, this.#key);
    // A window of this server's own (two servers signing in at once each get one), opened blank
    // and cut from this page before it goes to the authorization server, which the MCP server
    // chose: that page gets no handle on this one. (`noopener` would make window.open answer
    // null, the same as a blocked window.)
    const opened = window.open('about:blank', `moat-oauth ${this.#key}`, 'popup,width=520,height=720');
    if (opened) {
      opened.opener = null;
      opened.location.href = authorizationUrl.href;
    } else {
      finished.stop();
      throw new McpConnectionError({
        url: this.#key,
        reason: 'unauthorized',
        message: `The sign-in window for the MCP server ${this.#key} was blocked: start the first call from a click, or use \`open: 'page'\``,
      });
    }
    await finished.done;
  }

  #change(edit: (saved: Saved) => void): Promise<void> {
    return change(this.#key, this.#config, edit);
  }
}

/** Resolves when the redirect page has finished the sign-in with `state`; rejects with its error, or after 5 minutes. */
function finishedElsewhere(state: string, url: string): { done: Promise<void>; stop(): void } {
  const channel = new BroadcastChannel(CHANNEL);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stop = () => {
    clearTimeout(timer);
    channel.close();
  };
  const done = new Promise<void>((resolve, reject) => {
    timer = setTimeout(() => {
      stop();
      reject(
        new McpConnectionError({
          url,
          reason: 'unauthorized',
          message: `The sign-in for the MCP server ${url} did not finish within ${POPUP_WAIT_MS / 60_000} minutes`,
        }),
      );
    }, POPUP_WAIT_MS);
    channel.onmessage = ({ data }: MessageEvent<{ state: string; error?: string }>) => {
      if (data.state !== state) return;
      stop();
      if (data.error === undefined) resolve();
      else reject(new McpConnectionError({ url, reason: 'unauthorized', message: data.error }));
    };
  });
  return { done, stop };
}

/**
 * On the redirect page: trades the authorization server's code for tokens, keeps them, and tells
 * the page that is waiting (a popup's opener). Resolves with the MCP server's URL, and whether the
 * sign-in went by popup (then this page is that window, to close; the sign-in page's opener
 * policy may have cut `window.opener`, so that cannot tell).
 *
 * @example
 * // oauth-callback.html
 * const { popup } = await finishOAuth();
 * if (popup) window.close();
 * else location.replace('/');
 */
export async function finishOAuth(callbackUrl: string | URL = location.href): Promise<{ url: string; popup: boolean }> {
  const callback = checkHttpUrl(callbackUrl, 'the callback URL');
  const answer = callback.searchParams;
  const state = answer.get('state') ?? '';
  /** Tells the page waiting for this sign-in (a popup's opener) how it went. */
  const tell = (error?: string) => {
    const channel = new BroadcastChannel(CHANNEL);
    channel.postMessage({ state, ...(error === undefined ? {} : { error }) });
    channel.close();
  };
  const found = await waitingFor(state);
  if (!found) {
    const message = `No sign-in waits for this answer (state ${describeValue(state)}): it was finished or signed out already, or started in another browser`;
    tell(message);
    // The callback's address without its query: the code stays out of errors and logs.
    throw new McpConnectionError({ url: `${callback.origin}${callback.pathname}`, reason: 'unauthorized', message });
  }
  const [url, saved] = found;
  // The config the sign-in started with: its redirect URL must be the one the code is traded with.
  const config = configOf(saved);
  let failure: string | undefined;
  try {
    const refused = answer.get('error');
    if (refused !== null) {
      const why = answer.get('error_description');
      throw new Error(`The authorization server refused the sign-in: ${refused}${why ? ` (${why})` : ''}`);
    }
    const code = answer.get('code');
    if (!code) throw new Error('The callback URL has no `code`');
    const { auth } = await import('@modelcontextprotocol/sdk/client/auth.js');
    const provider = new Provider(url, config, 'page');
    await auth(provider as unknown as Parameters<typeof auth>[0], {
      serverUrl: url,
      authorizationCode: code,
      fetchFn: anonymousFetch,
    });
  } catch (error) {
    failure = `Could not sign in to the MCP server ${url}: ${error instanceof Error ? error.message : String(error)}`;
    throw new McpConnectionError({ url, reason: 'unauthorized', message: failure, cause: error });
  } finally {
    // The state is spent either way; the waiting page hears even if forgetting it fails.
    await change(url, config, (kept) => {
      delete kept.state;
      delete kept.verifier;
      delete kept.popup;
    }).finally(() => tell(failure));
  }
  return { url, popup: saved.popup === true };
}

async function waitingFor(state: string): Promise<[string, Saved] | undefined> {
  if (!state) return undefined;
  let cursor = await (await database()).transaction(STORE).store.openCursor();
  while (cursor) {
    const saved = cursor.value as Saved;
    if (saved.state === state) return [String(cursor.key), saved];
    cursor = await cursor.continue();
  }
  return undefined;
}
