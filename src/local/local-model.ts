import { Wllama } from '@wllama/wllama';
import { LocalModelError } from '../errors/local-model-error';
import { describeValue } from '../errors/moat-error';
import { checkCount, checkSignal } from '../errors/option-checks';
import { isPlainObject } from '../json/json-value';
import { modelStream } from '../models/model-stream';
import { historyOf, mergeBody, resolveRequest, setDefined, settingsOf } from '../models/settings';
import type { ChatModel, ModelRequest, ModelSettings } from '../models/types';
import { toOpenAIChat, toOpenAITools } from '../providers/openai-chat';
import { toOpenAIResponseFormat } from '../providers/output-format';
import type { Obj } from '../providers/wire';
import { OpenAIChatDecoder } from '../stream/decoders/openai-chat-decoder';
import type { StreamPart } from '../stream/stream-part';
import { ggufExtent } from './gguf-extent';
import { type DownloadProgress, downloadModel } from './model-store';
import { GrammarAnswerReader, grammarPrompt, grammarSchema } from './tool-grammar';

export interface LocalModelOptions extends ModelSettings {
  /**
   * The GGUF file: its URL (downloaded once into this browser's storage, then loaded from there,
   * offline) or a Blob already in hand (a File the person picked, say).
   */
  model: string | Blob;
  /**
   * The address of wllama's WebAssembly file, `@wllama/wllama/esm/wasm/wllama.wasm` (with Vite:
   * `import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url'`).
   */
  wasmUrl: string;
  /** Reported as `modelId`. Default: the file's name. */
  name?: string;
  /** Tokens of context. Default 4096. */
  contextSize?: number;
  /**
   * Threads for inference. Default: up to 4 where the page is cross-origin isolated (threads
   * share memory, which only such a page may), else 1. `info().threads` says what was used.
   */
  threads?: number;
  /**
   * How the model calls tools: `'template'` through its chat template's own syntax (llama.cpp reads
   * it from the template and holds the model to it with a grammar), `'grammar'` through a JSON
   * object Moat describes in the system prompt and a grammar built from the tools' schemas (for a
   * template with no tool syntax). Default `'auto'`: the template's when it mentions tools.
   */
  toolCalls?: 'auto' | 'template' | 'grammar';
}

/** What was loaded, and how it runs. */
export interface LocalModelInfo {
  /** Threads inference runs on: more than 1 only on a cross-origin isolated page. */
  threads: number;
  multiThreaded: boolean;
  toolCalls: 'template' | 'grammar';
  contextSize: number;
  /** The model file's size in bytes. */
  size: number;
}

export interface LoadOptions {
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

/** A model running in this page's browser: a `ChatModel` that loads itself first. */
export interface LocalModel extends ChatModel {
  /**
   * Downloads the model (or reads it from the browser's storage) and loads it into llama.cpp's
   * worker. `stream` calls it when it was not called; call it first to show progress.
   */
  load(options?: LoadOptions): Promise<LocalModelInfo>;
  /** Set once loaded. */
  info(): LocalModelInfo | undefined;
  /** Stops the worker and frees the model's memory; the next request loads it again. */
  unload(): Promise<void>;
}

/**
 * A model running in the page's browser: llama.cpp compiled to WebAssembly (wllama), in a worker of
 * its own, on a GGUF file downloaded once and kept in the browser's storage. No server, no key;
 * offline once downloaded. Tools, structured output, usage and stopping work as with any client.
 *
 * @example
 * import { localModel } from 'moat-sdk/local';
 * import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
 *
 * const model = localModel({ model: '/models/qwen2.5-0.5b-instruct-q4_k_m.gguf', wasmUrl });
 * await model.load({ onProgress: ({ loaded, total }) => (bar.value = loaded / total) });
 * const agent = createAgent({ model, pool });
 */
export function localModel(options: LocalModelOptions): LocalModel {
  if (!isPlainObject(options)) throw new TypeError(`localModel takes an options object, got ${describeValue(options)}`);
  const { model: source, wasmUrl } = options;
  if (!(typeof source === 'string' && source !== '') && !(source instanceof Blob))
    throw new TypeError(`Expected \`model\` to be a URL or a Blob, got ${describeValue(source)}`);
  if (typeof wasmUrl !== 'string' || wasmUrl === '')
    throw new TypeError(`Expected \`wasmUrl\` to be the address of wllama.wasm, got ${describeValue(wasmUrl)}`);
  const contextSize = checkCount('contextSize', options.contextSize ?? 4096, { min: 1 });
  const threads = options.threads === undefined ? defaultThreads() : checkCount('threads', options.threads, { min: 1 });
  const toolCalls = options.toolCalls ?? 'auto';
  if (toolCalls !== 'auto' && toolCalls !== 'template' && toolCalls !== 'grammar')
    throw new TypeError(
      `Expected \`toolCalls\` to be 'auto', 'template' or 'grammar', got ${describeValue(toolCalls)}`,
    );
  const defaults = settingsOf(options);
  const label = typeof source === 'string' ? source : 'a Blob';
  const provider = 'local';
  const instance = Math.random().toString(36).slice(2, 8);
  let turns = 0;

  let loading: Promise<{ engine: Wllama; info: LocalModelInfo }> | undefined;
  let loaded: { engine: Wllama; info: LocalModelInfo } | undefined;

  async function load(loadOptions: LoadOptions = {}) {
    const signal = checkSignal(loadOptions.signal);
    const blob =
      typeof source === 'string'
        ? await downloadModel(source, {
            ...(loadOptions.onProgress ? { onProgress: loadOptions.onProgress } : {}),
            ...(signal ? { signal } : {}),
          })
        : source;
    await checkedBlob(blob, label);
    signal?.throwIfAborted();
    const engine = new Wllama({ default: wasmUrl }, { suppressNativeLog: true, logger: QUIET });
    try {
      await engine.loadModel([blob], { n_ctx: contextSize, n_threads: threads, n_gpu_layers: 0, jinja: true });
    } catch (error) {
      await engine.exit().catch(() => {});
      throw new LocalModelError({
        reason: 'cannot-load',
        source: label,
        detail: `could not be loaded by llama.cpp (${error instanceof Error ? error.message : String(error)}): a file cut short, an architecture it does not know, or more memory than the page may have`,
        cause: error,
      });
    }
    const template = engine.getChatTemplate() ?? '';
    const info: LocalModelInfo = {
      threads: engine.getNumThreads(),
      multiThreaded: engine.isMultithread(),
      toolCalls: toolCalls === 'auto' ? (/\btools\b/.test(template) ? 'template' : 'grammar') : toolCalls,
      contextSize,
      size: blob.size,
    };
    return { engine, info };
  }

  function ready(loadOptions?: LoadOptions) {
    if (!loading) {
      loading = load(loadOptions).then(
        (value) => (loaded = value),
        (error) => {
          loading = undefined;
          throw error;
        },
      );
    }
    return loading;
  }

  return {
    provider,
    modelId: options.name ?? (typeof source === 'string' ? fileName(source) : 'local'),
    async load(loadOptions) {
      return (await ready(loadOptions)).info;
    },
    info: () => loaded?.info,
    async unload() {
      const current = loading;
      loading = undefined;
      loaded = undefined;
      if (current) await (await current.catch(() => undefined))?.engine.exit();
    },
    stream(input) {
      const request = resolveRequest(defaults, input);
      return modelStream(provider, request.signal, async (signal) => {
        const { engine, info } = await ready();
        signal.throwIfAborted();
        const textOnly = info.toolCalls === 'grammar';
        const grammar = textOnly && (request.tools ?? []).length > 0 && request.toolChoice !== 'none';
        // A template with no tool syntax cannot write earlier calls and results: they go as text.
        const body = grammar ? grammarBody(request) : templateBody(request, textOnly);
        const chunks = completionChunks(engine, body, signal);
        const decoder = new OpenAIChatDecoder();
        const reader = grammar ? new GrammarAnswerReader(`local-${instance}-${++turns}`) : undefined;
        async function* parts(): AsyncGenerator<StreamPart> {
          for await (const chunk of chunks) {
            for (const event of reader ? throughReader(chunk, reader) : [chunk]) yield* decoder.push(event);
          }
          yield* decoder.flush();
        }
        return { [Symbol.asyncIterator]: () => parts(), message: () => decoder.finish() };
      });
    },
  };
}

/**
 * wllama's chunks as they come. Its own iterator leaves a rejection nobody reads when the reading
 * stops early; this one owns the request's promise, and ends at once on abort, before any chunk
 * still on its way.
 */
async function* completionChunks(engine: Wllama, body: Obj, signal: AbortSignal): AsyncGenerator<Obj> {
  const queue: Obj[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  let failure: { error: unknown } | undefined;
  const onAbort = () => wake?.();
  signal.addEventListener('abort', onAbort, { once: true });
  engine
    .createChatCompletion({
      ...(body as object),
      stream: true,
      abortSignal: signal,
      onData: (chunk: Obj) => {
        queue.push(chunk);
        wake?.();
      },
    } as never)
    .then(
      () => (ended = true),
      (error: unknown) => (failure = { error }),
    )
    .finally(() => wake?.());
  try {
    for (;;) {
      signal.throwIfAborted();
      const chunk = queue.shift();
      if (chunk) {
        yield chunk;
        continue;
      }
      if (failure) throw failure.error;
      if (ended) return;
      await new Promise<void>((resolve) => (wake = resolve));
      wake = undefined;
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

/** The request as wllama's OpenAI-style body, tools left to the chat template (if any). */
function templateBody(request: ModelRequest, textOnly: boolean): Obj {
  const messages = toOpenAIChat(historyOf(request));
  const body: Obj = {
    messages: textOnly ? textOnlyHistory(messages) : messages,
    stream_options: { include_usage: true },
  };
  const tools = request.tools ?? [];
  if (tools.length > 0 && request.toolChoice !== 'none') {
    body.tools = toOpenAITools(tools);
    setDefined(body, {
      tool_choice:
        request.toolChoice &&
        (typeof request.toolChoice === 'string'
          ? request.toolChoice
          : { type: 'function', function: { name: request.toolChoice.name } }),
      parallel_tool_calls: request.parallelToolCalls,
    });
  }
  return finishBody(body, request);
}

/**
 * Grammar mode: the tools described in the system prompt, earlier calls and results written as
 * text, and the answer held to one JSON object (a call, or a reply when the model may choose).
 */
function grammarBody(request: ModelRequest): Obj {
  const tools = request.tools ?? [];
  const system = [request.system, grammarPrompt(tools)].filter(Boolean).join('\n\n');
  const messages = textOnlyHistory(toOpenAIChat(historyOf({ ...request, system })));
  const body: Obj = {
    messages,
    stream_options: { include_usage: true },
    response_format: {
      type: 'json_schema',
      json_schema: { name: 'answer', schema: grammarSchema(tools, request.toolChoice) },
    },
  };
  // The answer's shape is the grammar's: structured output is not asked again on top of it.
  const { output: _, ...rest } = request;
  return finishBody(body, rest);
}

function finishBody(body: Obj, request: ModelRequest): Obj {
  setDefined(body, { temperature: request.temperature, max_tokens: request.maxTokens });
  if (request.output) body.response_format = toOpenAIResponseFormat(request.output);
  mergeBody(body, request.providerOptions);
  return body;
}

/** Calls and results as plain turns, for a template that knows neither. */
function textOnlyHistory(messages: Obj[]): Obj[] {
  const names = new Map<string, string>();
  return messages.map((m) => {
    if (m.role === 'assistant' && Array.isArray(m.tool_calls) && m.tool_calls.length > 0) {
      const calls = (m.tool_calls as Obj[]).map((c) => {
        const fn = c.function as Obj;
        names.set(c.id as string, fn.name as string);
        let args: unknown = {};
        try {
          args = JSON.parse((fn.arguments as string) || '{}');
        } catch {
          args = fn.arguments;
        }
        return JSON.stringify({ name: fn.name, arguments: args });
      });
      return {
        role: 'assistant',
        content: [typeof m.content === 'string' ? m.content : '', ...calls].join('\n').trim(),
      };
    }
    if (m.role === 'tool') {
      const name = names.get(m.tool_call_id as string) ?? 'the tool';
      const content = typeof m.content === 'string' ? m.content : JSON.stringify(m.content);
      return { role: 'user', content: `What ${name} returned: ${content}` };
    }
    return m;
  });
}

/** A wllama chunk with its text read as the grammar's JSON: a call's deltas, or the reply's text. */
function throughReader(chunk: Obj, reader: GrammarAnswerReader): Obj[] {
  const choices = Array.isArray(chunk.choices) ? (chunk.choices as Obj[]) : [];
  const choice = choices[0];
  if (!choice) return [chunk];
  const delta = isPlainObject(choice.delta) ? choice.delta : {};
  const out: Obj[] = [];
  const wrap = (d: Obj, finish: unknown = null): Obj => ({
    ...chunk,
    choices: [{ index: 0, delta: d, finish_reason: finish }],
  });
  const { content, ...rest } = delta;
  if (Object.keys(rest).length > 0 || (content === undefined && choice.finish_reason == null)) out.push(wrap(rest));
  if (typeof content === 'string') for (const d of reader.push(content)) out.push(wrap(d));
  if (choice.finish_reason != null) {
    for (const d of reader.finish()) out.push(wrap(d));
    out.push(wrap({}, reader.isCall && choice.finish_reason === 'stop' ? 'tool_calls' : choice.finish_reason));
  }
  return out;
}

/** The blob, once it is seen to be a whole GGUF file. */
async function checkedBlob(blob: Blob, source: string): Promise<Blob> {
  const head = new Uint8Array(await blob.slice(0, 4).arrayBuffer());
  if (String.fromCharCode(...head) !== 'GGUF')
    throw new LocalModelError({ reason: 'not-gguf', source, detail: 'is not a GGUF file (a GGUF file begins "GGUF")' });
  let extent: number | undefined;
  try {
    extent = await ggufExtent(blob);
  } catch (error) {
    throw new LocalModelError({
      reason: 'cannot-load',
      source,
      detail: `has a header llama.cpp cannot read (${error instanceof Error ? error.message : String(error)})`,
      cause: error,
    });
  }
  if (extent !== undefined && blob.size < extent)
    throw new LocalModelError({
      reason: 'cannot-load',
      source,
      detail: `is cut short: it has ${blob.size} bytes and its header describes ${extent}`,
    });
  return blob;
}

function defaultThreads(): number {
  if (!globalThis.crossOriginIsolated) return 1;
  return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 1));
}

function fileName(url: string): string {
  return url.split(/[?#]/)[0]?.split('/').pop() || url;
}

const QUIET = { debug: () => {}, log: () => {}, warn: () => {}, error: () => {} };
