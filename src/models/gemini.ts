import { toGemini, toGeminiTools } from '../providers/gemini';
import { toGeminiOutputConfig } from '../providers/output-format';
import type { Obj } from '../providers/wire';
import { decodeWith } from '../stream/decode-stream';
import { GeminiDecoder } from '../stream/decoders/gemini-decoder';
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

export interface GeminiOptions extends HttpClientOptions, ModelSettings {
  /** Sent as the `x-goog-api-key` header, not in the URL; never in an error or an event. None: no header. */
  apiKey?: string;
  model: string;
  /** Default `https://generativelanguage.googleapis.com/v1beta`; a path (`/api/gemini`) is a route on the page's origin. */
  baseURL?: string;
}

/**
 * Google's Gemini API (`streamGenerateContent`, SSE).
 *
 * @example const model = gemini({ apiKey, model: 'gemini-2.5-flash' });
 */
export function gemini(options: GeminiOptions): ChatModel {
  checkModelOptions(options, 'gemini');
  const t = transport(options);
  const { apiKey, model } = options;
  const baseURL = options.baseURL ?? 'https://generativelanguage.googleapis.com/v1beta';
  const defaults = settingsOf(options);
  const provider = 'gemini';
  return withContextWindow(
    {
      provider,
      modelId: model,
      stream(input) {
        const request = resolveRequest(defaults, input);
        const body = withFittedImages(request, 'gemini', geminiBody);
        return streamOverHTTP(
          t,
          {
            provider,
            url: joinURL(baseURL, `models/${encodeURIComponent(model)}:streamGenerateContent?alt=sse`),
            headers: apiKey ? { 'x-goog-api-key': apiKey } : {},
            body,
            apiKey,
            signal: request.signal,
          },
          (bytes, signal) => decodeWith(new GeminiDecoder(), bytes, { signal }),
        );
      },
    },
    options,
  );
}

const MODES = { auto: 'AUTO', required: 'ANY', none: 'NONE' } as const;

function geminiBody(request: ModelRequest): Obj {
  const body: Obj = { ...toGemini(historyOf(request)) };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = toGeminiTools(tools);
    const choice = request.toolChoice;
    if (choice !== undefined) {
      body.toolConfig = {
        functionCallingConfig:
          typeof choice === 'object' ? { mode: 'ANY', allowedFunctionNames: [choice.name] } : { mode: MODES[choice] },
      };
    }
  }
  const generationConfig: Obj = {};
  setDefined(generationConfig, { temperature: request.temperature, maxOutputTokens: request.maxTokens });
  if (request.output) Object.assign(generationConfig, toGeminiOutputConfig(request.output));
  if (Object.keys(generationConfig).length > 0) body.generationConfig = generationConfig;
  mergeBody(body, request.providerOptions);
  return body;
}
