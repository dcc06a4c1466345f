import { toOllama, toOllamaTools } from '../providers/ollama';
import type { Obj } from '../providers/wire';
import { decodeWith } from '../stream/decode-stream';
import { OllamaDecoder } from '../stream/decoders/ollama-decoder';
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

export interface OllamaOptions extends HttpClientOptions, ModelSettings {
  model: string;
  /** Default `http://localhost:11434`; a path (`/api/ollama`) is a route on the page's origin. */
  baseURL?: string;
}

/**
 * Ollama's native `/api/chat` (NDJSON). Ollama has no tool choice: `toolChoice` and
 * `parallelToolCalls` are not sent. (Its OpenAI-compatible `/v1` works with `openAICompatible` too.)
 *
 * @example const model = ollama({ model: 'qwen3' });
 */
export function ollama(options: OllamaOptions): ChatModel {
  checkModelOptions(options, 'ollama');
  const t = transport(options);
  const baseURL = options.baseURL ?? 'http://localhost:11434';
  const defaults = settingsOf(options);
  const provider = 'ollama';
  return withContextWindow(
    {
      provider,
      modelId: options.model,
      stream(input) {
        const request = resolveRequest(defaults, input);
        const body = withFittedImages(request, 'ollama', (r) => ollamaBody(options.model, r));
        return streamOverHTTP(
          t,
          { provider, url: joinURL(baseURL, 'api/chat'), headers: {}, body, apiKey: undefined, signal: request.signal },
          (bytes, signal) => decodeWith(new OllamaDecoder(), bytes, { framing: 'ndjson', signal }),
        );
      },
    },
    options,
  );
}

function ollamaBody(model: string, request: ModelRequest): Obj {
  const body: Obj = { model, messages: toOllama(historyOf(request)), stream: true };
  const tools = request.tools ?? [];
  if (tools.length > 0) body.tools = toOllamaTools(tools);
  // Ollama takes the JSON Schema itself as its `format` (a grammar the answer is sampled under).
  if (request.output) body.format = request.output.schema;
  const modelOptions: Obj = {};
  setDefined(modelOptions, { temperature: request.temperature, num_predict: request.maxTokens });
  if (Object.keys(modelOptions).length > 0) body.options = modelOptions;
  mergeBody(body, request.providerOptions);
  return body;
}
