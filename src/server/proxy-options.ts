/**
 * What `createModelProxy` takes, checked once when the route is made (a `TypeError` that names the
 * bad option and quotes it), and what it makes of it: the route's settings, its presets filled in.
 */
import { describeValue } from '../errors/moat-error';
import { checkCount } from '../errors/option-checks';

/**
 * How the key goes to a provider of your own: `'bearer'` (`Authorization: Bearer <key>`),
 * `{ header }` (the key as that header's whole value, Azure's `api-key` say), or `'none'`.
 */
export type ProxyAuth = 'bearer' | 'none' | { header: string };

/** A provider the presets do not name: where it is, and how it takes the key. */
export interface ProxyProvider {
  /** The provider's API root, as the model client's `baseURL` would be (`https://…/v1`). */
  baseURL: string;
  /** Default `'bearer'`. */
  auth?: ProxyAuth;
}

export interface ModelProxyOptions {
  /**
   * `'openai'` (Chat Completions and Responses; any server that speaks them, with `baseURL`),
   * `'anthropic'`, `'gemini'`, `'ollama'` (the key optional), or `{ baseURL, auth }`.
   */
  provider: 'openai' | 'anthropic' | 'gemini' | 'ollama' | ProxyProvider;
  /**
   * The provider's key (`process.env.OPENAI_API_KEY`: an unset variable is a `TypeError` at once).
   * It goes upstream only, and is cut out of any error body that echoes it.
   */
  apiKey?: string | undefined;
  /** The named provider's server elsewhere (Ollama on another machine, an OpenAI-compatible host). */
  baseURL?: string;
  allow: {
    /** The model names this route forwards, exactly; any other is refused with a 403. */
    models: readonly string[];
    /**
     * The paths it forwards, relative to the provider's `baseURL`; `{model}` stands for one path
     * segment that names the model (Gemini's `models/{model}:streamGenerateContent`). Default:
     * the paths Moat's client for that provider sends.
     */
    paths?: readonly string[];
  };
  /** Where the route is mounted (`/api/model`): the part of the path before the provider's. Default `''`. */
  basePath?: string;
  /**
   * Other origins whose pages may call the route (`'https://app.example.com'`): the route answers
   * their CORS preflight. Default none: same-origin pages only.
   */
  origin?: string | readonly string[];
  /** The largest request body the route reads, in bytes. Default 20 MiB (Gemini's inline-data cap). */
  maxBodyBytes?: number;
  /** Headers to send upstream on every request (`OpenAI-Organization`, `anthropic-beta`…). */
  headers?: Record<string, string>;
}

/** How the key goes upstream: the choices for a provider of your own, and Anthropic's and Gemini's ways. */
export type Auth = ProxyAuth | 'anthropic' | 'gemini';

interface Preset {
  baseURL: string;
  auth: Auth;
  paths: readonly string[];
  keyOptional?: true;
}

/** Each provider's root, how it takes the key, and the paths Moat's client for it sends. */
const PRESETS = {
  openai: { baseURL: 'https://api.openai.com/v1', auth: 'bearer', paths: ['chat/completions', 'responses'] },
  anthropic: { baseURL: 'https://api.anthropic.com', auth: 'anthropic', paths: ['v1/messages'] },
  gemini: {
    baseURL: 'https://generativelanguage.googleapis.com/v1beta',
    auth: 'gemini',
    paths: ['models/{model}:streamGenerateContent'],
  },
  // Its native API and its OpenAI-compatible one; a key only when something in front of it asks.
  ollama: {
    baseURL: 'http://localhost:11434',
    auth: 'bearer',
    paths: ['api/chat', 'v1/chat/completions'],
    keyOptional: true,
  },
} satisfies Record<string, Preset>;

const MiB = 1024 * 1024;

/** The route's settings, checked. */
export interface Route {
  baseURL: string;
  auth: Auth;
  apiKey: string | undefined;
  paths: { pattern: string; match: RegExp }[];
  models: ReadonlySet<string>;
  basePath: string;
  origins: ReadonlySet<string>;
  maxBodyBytes: number;
  headers: Record<string, string>;
}

/** The options, checked at once: a `TypeError` that names the bad one and quotes it. */
export function checkProxyOptions(options: ModelProxyOptions): Route {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`createModelProxy takes an options object, got ${describeValue(options)}`);
  const { provider, apiKey } = options;
  let preset: Preset;
  if (typeof provider === 'string' && Object.hasOwn(PRESETS, provider))
    preset = (PRESETS as Record<string, Preset>)[provider] as Preset;
  else if (typeof provider === 'object' && provider !== null && typeof provider.baseURL === 'string') {
    if (options.baseURL !== undefined)
      throw new TypeError('Give `baseURL` once: in the `provider` object, or beside a named provider');
    // What such a server most often speaks: OpenAI's protocol (`allow.paths` says otherwise).
    const auth = checkAuth(provider.auth ?? 'bearer');
    preset = {
      baseURL: provider.baseURL,
      auth,
      paths: PRESETS.openai.paths,
      ...(auth === 'none' && { keyOptional: true }),
    };
  } else
    throw new TypeError(
      `Expected \`provider\` to be 'openai', 'anthropic', 'gemini', 'ollama' or { baseURL, auth }, got ${describeValue(provider)}`,
    );
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey === ''))
    throw new TypeError('Expected `apiKey` to be a non-empty string');
  if (apiKey === undefined && !preset.keyOptional)
    throw new TypeError(
      "Expected `apiKey`: this provider takes a key (read it from the server's environment; is the variable set?)",
    );
  const baseURL = checkBaseURL(options.baseURL ?? preset.baseURL);
  const allow = options.allow;
  if (typeof allow !== 'object' || allow === null)
    throw new TypeError(`Expected \`allow\` to be { models, paths? }, got ${describeValue(allow)}`);
  if (
    !Array.isArray(allow.models) ||
    allow.models.length === 0 ||
    allow.models.some((m) => typeof m !== 'string' || m === '')
  )
    throw new TypeError(
      `Expected \`allow.models\` to be a non-empty list of model names, got ${describeValue(allow.models)}`,
    );
  const paths = allow.paths ?? preset.paths;
  if (!Array.isArray(paths) || paths.length === 0)
    throw new TypeError(`Expected \`allow.paths\` to be a non-empty list of paths, got ${describeValue(paths)}`);
  const basePath = options.basePath ?? '';
  if (typeof basePath !== 'string' || (basePath !== '' && !/^\/[^?#]*[^/?#]$/.test(basePath)))
    throw new TypeError(
      `Expected \`basePath\` to be a path that starts with '/' and does not end with one ('/api/model'), got ${describeValue(basePath)}`,
    );
  const origins =
    options.origin === undefined ? [] : typeof options.origin === 'string' ? [options.origin] : options.origin;
  if (!Array.isArray(origins))
    throw new TypeError(`Expected \`origin\` to be an origin or a list of them, got ${describeValue(options.origin)}`);
  for (const origin of origins) checkOrigin(origin);
  const headers = options.headers ?? {};
  if (typeof headers !== 'object' || headers === null || Object.values(headers).some((v) => typeof v !== 'string'))
    throw new TypeError(`Expected \`headers\` to be an object of strings, got ${describeValue(headers)}`);
  return {
    baseURL,
    auth: preset.auth,
    apiKey,
    paths: paths.map(checkPath),
    models: new Set(allow.models),
    basePath,
    origins: new Set(origins),
    maxBodyBytes: checkCount('maxBodyBytes', options.maxBodyBytes ?? 20 * MiB, { min: 1 }),
    headers: { ...headers },
  };
}

function checkAuth(auth: unknown): ProxyAuth {
  if (auth === 'bearer' || auth === 'none') return auth;
  if (typeof auth === 'object' && auth !== null && typeof (auth as { header?: unknown }).header === 'string') {
    const header = (auth as { header: string }).header;
    if (/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header)) return { header };
  }
  throw new TypeError(`Expected \`auth\` to be 'bearer', 'none' or { header: 'name' }, got ${describeValue(auth)}`);
}

function checkBaseURL(value: unknown): string {
  if (typeof value === 'string' && /^https?:\/\//.test(value)) {
    try {
      return new URL(value).href.replace(/\/+$/, '');
    } catch {
      // quoted below
    }
  }
  throw new TypeError(`Expected \`baseURL\` to be an http(s) URL, got ${describeValue(value)}`);
}

function checkPath(value: unknown): { pattern: string; match: RegExp } {
  const pattern = typeof value === 'string' ? value.replace(/^\/+/, '') : '';
  const placeholders = pattern.split('{model}').length - 1;
  if (pattern === '' || /[?#]|(^|\/)\.\.?(\/|$)/.test(pattern) || placeholders > 1)
    throw new TypeError(
      `Expected each of \`allow.paths\` to be a path under the provider's baseURL ('chat/completions', 'models/{model}:streamGenerateContent'), got ${describeValue(value)}`,
    );
  const source = pattern
    .split('{model}')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('([^/]+)');
  return { pattern, match: new RegExp(`^${source}$`) };
}

function checkOrigin(origin: unknown): void {
  let parsed: URL | undefined;
  try {
    parsed = typeof origin === 'string' ? new URL(origin) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || parsed.origin !== origin || !/^https?:$/.test(parsed.protocol))
    throw new TypeError(
      `Expected \`origin\` to hold origins such as 'https://app.example.com' (a scheme, a host, a port if any; no path), got ${describeValue(origin)}`,
    );
}
