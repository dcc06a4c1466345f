/**
 * Which model the demo talks to, kept in this browser's localStorage (keys included: they go only
 * to the provider chosen, never into a URL), and the chat model made from it.
 */
import {
  anthropic,
  type ChatModel,
  gemini,
  MoatError,
  ModelHTTPError,
  ModelNetworkError,
  ModelStreamError,
  openAICompatible,
} from 'moat-sdk';
import { offlineModel } from './offline-model';

export type Provider = 'offline' | 'local' | 'openai' | 'anthropic' | 'gemini';

export interface ModelSettings {
  provider: Provider;
  /** "In this browser": the GGUF file's address (downloaded once, with the person's agreement). */
  local: { url: string };
  openai: { baseURL: string; model: string; apiKey: string };
  anthropic: { model: string; apiKey: string };
  gemini: { model: string; apiKey: string };
}

/** Presets for the OpenAI-compatible endpoint. */
export const OPENAI_PRESETS: readonly { label: string; baseURL: string; model: string }[] = [
  { label: 'OpenAI', baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1-mini' },
  { label: 'Ollama on this computer', baseURL: 'http://localhost:11434/v1', model: 'qwen3' },
  { label: 'llama.cpp server on this computer', baseURL: 'http://localhost:8080/v1', model: 'local' },
];

export const DEFAULT_SETTINGS: ModelSettings = {
  provider: 'offline',
  local: { url: '' },
  openai: { baseURL: 'https://api.openai.com/v1', model: 'gpt-4.1-mini', apiKey: '' },
  anthropic: { model: 'claude-sonnet-4-5', apiKey: '' },
  gemini: { model: 'gemini-2.5-flash', apiKey: '' },
};

const KEY = 'moat-demo-model-settings';

const str = (value: unknown, fallback: string) => (typeof value === 'string' ? value : fallback);

/** The saved settings, each field checked (anything odd in storage falls back to the default). */
export function loadSettings(storage: Storage = localStorage): ModelSettings {
  let saved: Record<string, Record<string, unknown> | string | undefined> = {};
  try {
    const parsed = JSON.parse(storage.getItem(KEY) ?? '{}');
    if (parsed && typeof parsed === 'object') saved = parsed;
  } catch {}
  const part = <T extends Record<string, string>>(name: keyof ModelSettings, defaults: T): T => {
    const value = saved[name];
    const given = value && typeof value === 'object' ? value : {};
    return Object.fromEntries(Object.entries(defaults).map(([k, v]) => [k, str(given[k], v)])) as T;
  };
  const provider = saved.provider;
  return {
    provider:
      provider === 'local' || provider === 'openai' || provider === 'anthropic' || provider === 'gemini'
        ? provider
        : 'offline',
    local: part('local', DEFAULT_SETTINGS.local),
    openai: part('openai', DEFAULT_SETTINGS.openai),
    anthropic: part('anthropic', DEFAULT_SETTINGS.anthropic),
    gemini: part('gemini', DEFAULT_SETTINGS.gemini),
  };
}

export function saveSettings(settings: ModelSettings, storage: Storage = localStorage): void {
  storage.setItem(KEY, JSON.stringify(settings));
}

/** Every key removed from storage; the rest kept. */
export function forgetKeys(settings: ModelSettings, storage: Storage = localStorage): ModelSettings {
  const next = withoutKeys(settings);
  saveSettings(next, storage);
  return next;
}

/** The same settings with every key empty. */
export function withoutKeys(settings: ModelSettings): ModelSettings {
  return {
    ...settings,
    openai: { ...settings.openai, apiKey: '' },
    anthropic: { ...settings.anthropic, apiKey: '' },
    gemini: { ...settings.gemini, apiKey: '' },
  };
}

/** "OpenAI-compatible · qwen3", for the header. */
export function describeModel(settings: ModelSettings): string {
  switch (settings.provider) {
    case 'offline':
      return 'Offline demo model';
    case 'local':
      return `In this browser · ${settings.local.url.split(/[?#]/)[0]?.split('/').pop() ?? ''}`;
    case 'openai':
      return `${settings.openai.model} · ${hostOf(settings.openai.baseURL)}`;
    case 'anthropic':
      return `Anthropic · ${settings.anthropic.model}`;
    case 'gemini':
      return `Gemini · ${settings.gemini.model}`;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

/** The chat model the settings describe. Throws a TypeError naming a missing field. */
export function modelFrom(settings: ModelSettings, options: { maxRetries?: number } = {}): ChatModel {
  const need = (value: string, what: string) => {
    if (!value.trim()) throw new TypeError(`Settings: the ${what} is empty`);
    return value.trim();
  };
  switch (settings.provider) {
    case 'offline':
      return offlineModel();
    case 'local':
      return lazyLocalModel(need(settings.local.url, 'model file'));
    case 'openai': {
      const { baseURL, model, apiKey } = settings.openai;
      let url: URL;
      try {
        url = new URL(need(baseURL, 'base URL'));
      } catch (error) {
        throw error instanceof TypeError && /empty/.test(error.message)
          ? error
          : new TypeError(`Settings: '${baseURL}' is not a URL (e.g. http://localhost:11434/v1)`);
      }
      return openAICompatible({
        baseURL: url.href.replace(/\/$/, ''),
        model: need(model, 'model name'),
        ...(apiKey.trim() ? { apiKey: apiKey.trim() } : {}),
        ...options,
      });
    }
    case 'anthropic':
      return anthropic({
        model: need(settings.anthropic.model, 'model name'),
        apiKey: need(settings.anthropic.apiKey, 'Anthropic API key'),
        ...options,
      });
    case 'gemini':
      return gemini({
        model: need(settings.gemini.model, 'model name'),
        apiKey: need(settings.gemini.apiKey, 'Gemini API key'),
        ...options,
      });
  }
}

/**
 * The model in this browser, its code (moat-sdk/local, wllama) loaded the first time it is asked:
 * an app that never chooses it never loads it.
 */
function lazyLocalModel(url: string): ChatModel {
  const made = () => import('./local-models').then((m) => m.localModelFor(url));
  return {
    provider: 'local',
    modelId: url.split(/[?#]/)[0]?.split('/').pop() ?? url,
    stream(request) {
      let inner: ReturnType<ChatModel['stream']> | undefined;
      return {
        async *[Symbol.asyncIterator]() {
          inner = (await made()).stream(request);
          yield* inner;
        },
        message() {
          if (!inner) throw new TypeError('message() is known once the stream has been read');
          return inner.message();
        },
      };
    },
  };
}

/** A failure in words a person can act on (CORS and a refused key above all). */
export function explainFailure(error: unknown, settings: ModelSettings): string {
  if (error instanceof ModelNetworkError) {
    const local = settings.provider === 'openai' && /localhost|127\.0\.0\.1/.test(settings.openai.baseURL);
    return `${error.message}. Is the server running, and does it allow requests from this page (CORS)?${
      local ? ` For Ollama, start it with OLLAMA_ORIGINS="${location.origin}".` : ''
    }`;
  }
  if (error instanceof ModelHTTPError) {
    if (error.status === 401 || error.status === 403)
      return `The server refused the key (${error.status}): check the API key in Settings. ${error.message}`;
    if (error.status === 404) return `Not found (404): check the base URL and the model name. ${error.message}`;
    if (error.status === 429) return `Rate limited (429): wait a little and retry. ${error.message}`;
    return error.message;
  }
  if (error instanceof ModelStreamError) return `The answer broke off: ${error.message}`;
  if (MoatError.isInstance(error) && error.name === 'LocalModelError') return error.message;
  if (MoatError.isInstance(error)) return `${error.name}: ${error.message}`;
  return error instanceof Error ? error.message : String(error);
}

/**
 * Ask the model for a one-word answer: resolves with what it said, rejects with the failure
 * (no retries, 20 s at most).
 */
export async function testConnection(settings: ModelSettings): Promise<string> {
  const model = modelFrom(settings, { maxRetries: 0 });
  const signal = AbortSignal.timeout(20_000);
  const stream = model.stream({
    messages: [{ role: 'user', content: 'Reply with the single word: OK' }],
    maxTokens: 16,
    signal,
  });
  let text = '';
  for await (const part of stream) {
    if (part.type === 'text-delta') text += part.delta;
    else if (part.type === 'tool-call') text += ` (a call of ${part.toolCall.name})`;
  }
  return text.trim() || '(an empty answer)';
}
