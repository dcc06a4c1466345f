import { toAnthropic, toAnthropicTools } from '../providers/anthropic';
import { toAnthropicOutputFormat } from '../providers/output-format';
import type { Obj } from '../providers/wire';
import { decodeWith } from '../stream/decode-stream';
import { AnthropicDecoder } from '../stream/decoders/anthropic-decoder';
import { joinURL, streamOverHTTP, transport, withFittedImages } from './http';
import {
  checkModelOptions,
  historyOf,
  mergeBody,
  resolveRequest,
  setDefined,
  settingsOf,
  withContextWindow,
} from './settings';
import type { ChatModel, HttpClientOptions, ModelRequest, ModelSettings } from './types';

export interface AnthropicOptions extends HttpClientOptions, ModelSettings {
  /** Sent as `x-api-key`; never in a URL, an error or an event. None: no header (a route adds it). */
  apiKey?: string;
  model: string;
  /** Default `https://api.anthropic.com`; a path (`/api/anthropic`) is a route on the page's origin. */
  baseURL?: string;
  /** The API's required `max_tokens`, when a request sets none. Default 4,096. */
  maxTokens?: number;
  /** Default `2023-06-01`. */
  version?: string;
}

/**
 * Anthropic's Messages API, streamed (SSE). Given a key, straight from the browser: it sends the
 * `anthropic-dangerous-direct-browser-access` header Anthropic asks of pages holding a key.
 * Without one, through a route of your server that adds it (`baseURL: '/api/anthropic'`, see
 * `createModelProxy` in `moat-sdk/server`).
 *
 * @example const model = anthropic({ apiKey, model: 'claude-sonnet-4-5' });
 */
export function anthropic(options: AnthropicOptions): ChatModel {
  checkModelOptions(options, 'anthropic');
  const t = transport(options);
  const { apiKey, model } = options;
  const baseURL = options.baseURL ?? 'https://api.anthropic.com';
  const defaults = settingsOf({ maxTokens: 4096, ...settingsOf(options) });
  const headers: Record<string, string> = { 'anthropic-version': options.version ?? '2023-06-01' };
  if (apiKey) {
    headers['x-api-key'] = apiKey;
    headers['anthropic-dangerous-direct-browser-access'] = 'true';
  }
  const provider = 'anthropic';
  return withContextWindow(
    {
      provider,
      modelId: model,
      stream(input) {
        const request = resolveRequest(defaults, input);
        const body = withFittedImages(request, 'anthropic', (r) => anthropicBody(model, r));
        return streamOverHTTP(
          t,
          { provider, url: joinURL(baseURL, 'v1/messages'), headers, body, apiKey, signal: request.signal },
          (bytes, signal) => decodeWith(new AnthropicDecoder(), bytes, { signal }),
        );
      },
    },
    options,
  );
}

function anthropicBody(model: string, request: ModelRequest): Obj {
  const { system, messages } = toAnthropic(historyOf(request));
  const body: Obj = { model, max_tokens: request.maxTokens, stream: true, messages };
  setDefined(body, { system, temperature: request.temperature });
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = toAnthropicTools(tools);
    const choice = request.toolChoice ?? 'auto';
    const toolChoice: Obj =
      typeof choice === 'object'
        ? { type: 'tool', name: choice.name }
        : { type: choice === 'required' ? 'any' : choice };
    if (request.parallelToolCalls === false && toolChoice.type !== 'none') toolChoice.disable_parallel_tool_use = true;
    if (request.toolChoice !== undefined || request.parallelToolCalls === false) body.tool_choice = toolChoice;
  }
  if (request.output) body.output_config = { format: toAnthropicOutputFormat(request.output) };
  mergeBody(body, request.providerOptions);
  return body;
}
