// The five model clients, each pointed at the wire-protocol test server (test/model-server).
import { anthropic } from '../src/models/anthropic';
import { gemini } from '../src/models/gemini';
import { ollama } from '../src/models/ollama';
import { openAICompatible } from '../src/models/openai-compatible';
import type { ChatModel } from '../src/models/types';

/** By format: a client for `model` (a scenario's id) at `url`, with `key` where the provider takes one. */
export function modelClients(url: string, key: string): Record<string, (model: string) => ChatModel> {
  return {
    'openai-chat': (model) => openAICompatible({ baseURL: `${url}/v1`, apiKey: key, model, retryDelayMs: 5 }),
    'openai-responses': (model) =>
      openAICompatible({ baseURL: `${url}/v1`, apiKey: key, model, api: 'responses', retryDelayMs: 5 }),
    anthropic: (model) => anthropic({ baseURL: url, apiKey: key, model, retryDelayMs: 5 }),
    gemini: (model) => gemini({ baseURL: `${url}/v1beta`, apiKey: key, model, retryDelayMs: 5 }),
    ollama: (model) => ollama({ baseURL: url, model, retryDelayMs: 5 }),
  };
}
