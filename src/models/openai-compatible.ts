import { describeValue } from '../errors/moat-error';
import { toOpenAIChat, toOpenAITools } from '../providers/openai-chat';
import { toOpenAIResponses, toOpenAIResponsesTools } from '../providers/openai-responses';
import { toOpenAIResponseFormat, toOpenAIResponsesFormat } from '../providers/output-format';
import type { Obj } from '../providers/wire';
import { decodeWith } from '../stream/decode-stream';
import { OpenAIChatDecoder } from '../stream/decoders/openai-chat-decoder';
import { OpenAIResponsesDecoder } from '../stream/decoders/openai-responses-decoder';
import type { StreamPart } from '../stream/stream-part';
import { joinURL, Later, streamOverHTTP, transport, withFittedImages } from './http';
import { modelStream } from './model-stream';
import {
  checkModelOptions,
  historyOf,
  mergeBody,
  resolveRequest,
  setDefined,
  settingsOf,
  withContextWindow,
} from './settings';
import type { ChatModel, HttpClientOptions, ModelRequest, ModelSettings, ToolChoice } from './types';

/**
 * Anything with OpenAI's `chat.completions.create` that streams chunks: the official `openai`
 * client, or an in-browser engine such as WebLLM's.
 */
export interface OpenAIChatClient {
  chat: {
    completions: {
      create(body: Obj, options?: { signal?: AbortSignal }): Promise<AsyncIterable<unknown>> | AsyncIterable<unknown>;
    };
  };
}

export interface OpenAICompatibleOptions extends HttpClientOptions, ModelSettings {
  model: string;
  /**
   * Default `https://api.openai.com/v1`. Ollama: `http://localhost:11434/v1`. A path (`/api/openai`)
   * is a route on the page's own origin, one that adds the key (`createModelProxy`, `moat-sdk/server`).
   */
  baseURL?: string;
  /** Sent as `Authorization: Bearer …`; never in a URL, an error or an event. None: no header. */
  apiKey?: string;
  /** Chat Completions (default, what compatible servers speak) or the Responses API. */
  api?: 'chat' | 'responses';
  /** Instead of HTTP: a client object that streams OpenAI chunks (WebLLM, the `openai` package). */
  client?: OpenAIChatClient;
}

/**
 * A model on OpenAI or any server that speaks its Chat Completions protocol (Ollama's `/v1`,
 * llama.cpp, vLLM, LM Studio, Groq, OpenRouter…), or OpenAI's Responses API with `api: 'responses'`.
 *
 * @example
 * const model = openAICompatible({ baseURL: 'http://localhost:11434/v1', model: 'qwen3' });
 * const parts = model.stream({ messages: [userMessage('Hi')], tools: await pool.specs() });
 * for await (const part of parts) render(part);
 */
export function openAICompatible(options: OpenAICompatibleOptions): ChatModel {
  checkModelOptions(options, 'openAICompatible');
  const api = options.api ?? 'chat';
  if (api !== 'chat' && api !== 'responses')
    throw new TypeError(`Expected \`api\` to be 'chat' or 'responses', got ${describeValue(api)}`);
  const client = options.client;
  if (client !== undefined && typeof client?.chat?.completions?.create !== 'function')
    throw new TypeError('Expected `client` to have chat.completions.create (an OpenAI-style client)');
  if (client && api !== 'chat') throw new TypeError("A `client` speaks Chat Completions: leave `api` at 'chat'");
  const t = transport(options);
  const apiKey = options.apiKey;
  const baseURL = options.baseURL ?? 'https://api.openai.com/v1';
  const defaults = settingsOf(options);
  const provider = 'openai-compatible';
  return withContextWindow(
    {
      provider,
      modelId: options.model,
      stream(input) {
        const request = resolveRequest(defaults, input);
        const body =
          api === 'chat'
            ? withFittedImages(request, 'openai-chat', (r) => chatBody(options.model, r))
            : withFittedImages(request, 'openai-responses', (r) => responsesBody(options.model, r));
        if (client) {
          return modelStream(provider, request.signal, async (signal) => {
            const decoder = new OpenAIChatDecoder();
            const chunks = await client.chat.completions.create(
              body instanceof Later ? ((await body.make()) as Obj) : body,
              {
                signal,
              },
            );
            async function* parts(): AsyncGenerator<StreamPart> {
              for await (const chunk of chunks) yield* decoder.push(chunk);
              yield* decoder.flush();
            }
            return { [Symbol.asyncIterator]: () => parts(), message: () => decoder.finish() };
          });
        }
        return streamOverHTTP(
          t,
          {
            provider,
            url: joinURL(baseURL, api === 'chat' ? 'chat/completions' : 'responses'),
            headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {},
            body,
            apiKey,
            signal: request.signal,
          },
          (bytes, signal) =>
            decodeWith(api === 'chat' ? new OpenAIChatDecoder() : new OpenAIResponsesDecoder(), bytes, { signal }),
        );
      },
    },
    options,
  );
}

function chatBody(model: string, request: ModelRequest): Obj {
  const body: Obj = {
    model,
    messages: toOpenAIChat(historyOf(request)),
    stream: true,
    stream_options: { include_usage: true },
  };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = toOpenAITools(tools);
    setDefined(body, {
      tool_choice: request.toolChoice && chatToolChoice(request.toolChoice),
      parallel_tool_calls: request.parallelToolCalls,
    });
  }
  setDefined(body, { temperature: request.temperature, max_tokens: request.maxTokens });
  if (request.output) body.response_format = toOpenAIResponseFormat(request.output);
  mergeBody(body, request.providerOptions);
  return body;
}

function chatToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', function: { name: choice.name } };
}

function responsesBody(model: string, request: ModelRequest): Obj {
  const body: Obj = { model, input: toOpenAIResponses(historyOf(request)), stream: true };
  const tools = request.tools ?? [];
  if (tools.length > 0) {
    body.tools = toOpenAIResponsesTools(tools);
    setDefined(body, {
      tool_choice:
        request.toolChoice &&
        (typeof request.toolChoice === 'string'
          ? request.toolChoice
          : { type: 'function', name: request.toolChoice.name }),
      parallel_tool_calls: request.parallelToolCalls,
    });
  }
  setDefined(body, { temperature: request.temperature, max_output_tokens: request.maxTokens });
  if (request.output) body.text = { format: toOpenAIResponsesFormat(request.output) };
  mergeBody(body, request.providerOptions);
  return body;
}
