/**
 * Google Gemini `generateContent` (AI Studio and Vertex): a response → `AIMessage`, history →
 * `{ systemInstruction, contents }`.
 */
import { textOf } from '../messages/text-of';
import type { AIMessage, Content, Message, StopReason, ToolMessage, Usage } from '../messages/types';
import { forRequest, mediaOf, mediaParts, unsupported } from './media';
import { type JSONSchema, type ToolSpec, validateToolSpecs } from './tool-spec';
import { arr, CallCollector, compact, num, type Obj, obj, str } from './wire';

/** Gemini `finishReason` → `StopReason` (Gemini says STOP after function calls too). */
export function geminiStopReason(reason: unknown, hasToolCalls: boolean): StopReason | undefined {
  switch (reason) {
    case undefined:
    case null:
      return undefined;
    case 'STOP':
      return hasToolCalls ? 'tool-calls' : 'end';
    case 'MAX_TOKENS':
      return 'length';
    case 'SAFETY':
    case 'RECITATION':
    case 'BLOCKLIST':
    case 'PROHIBITED_CONTENT':
    case 'SPII':
    case 'IMAGE_SAFETY':
      return 'content-filter';
    default:
      return hasToolCalls ? 'tool-calls' : 'other';
  }
}

/** Gemini `usageMetadata` → `Usage`; thinking tokens count as output, as elsewhere. */
export function geminiUsage(raw: unknown): Usage | undefined {
  if (raw === undefined || raw === null) return undefined;
  const u = obj(raw);
  const candidates = num(u.candidatesTokenCount);
  const thoughts = num(u.thoughtsTokenCount);
  return compact<Usage>({
    inputTokens: num(u.promptTokenCount),
    outputTokens: candidates === undefined && thoughts === undefined ? undefined : (candidates ?? 0) + (thoughts ?? 0),
    totalTokens: num(u.totalTokenCount),
    cachedInputTokens: num(u.cachedContentTokenCount),
    reasoningTokens: thoughts,
  });
}

/**
 * Gemini's metadata on an AI message: the thought signatures the model attached (to be sent
 * back with the same parts) and which call ids the model itself gave.
 */
export interface GeminiMetadata {
  thoughtSignatures?: Record<string, string>;
  textThoughtSignature?: string;
  providerIds?: string[];
  model?: string;
}

/**
 * A Gemini response as an `AIMessage`: text parts give content (`thought: true` ones reasoning),
 * `functionCall` parts tool calls with synthesized ids where Gemini gives none, and thought
 * signatures are kept in `metadata.gemini` for `toGemini`.
 *
 * @example const ai = fromGemini(await response.json())
 */
export function fromGemini(response: unknown): AIMessage {
  const r = obj(response);
  const candidate = obj(arr(r.candidates)[0]);
  const calls = new CallCollector();
  const meta: GeminiMetadata = {};
  let text = '';
  let reasoning = '';
  for (const raw of arr(obj(candidate.content).parts)) {
    const part = obj(raw);
    const signature = str(part.thoughtSignature);
    if (part.functionCall !== undefined) {
      const fc = obj(part.functionCall);
      const given = str(fc.id);
      const id = calls.fromValue(given, str(fc.name), fc.args);
      if (given) meta.providerIds = [...(meta.providerIds ?? []), id];
      if (signature) meta.thoughtSignatures = { ...meta.thoughtSignatures, [id]: signature };
    } else if (typeof part.text === 'string') {
      if (part.thought === true) reasoning += part.text;
      else text += part.text;
      if (signature && !meta.textThoughtSignature) meta.textThoughtSignature = signature;
    }
  }
  const model = str(r.modelVersion);
  if (model) meta.model = model;
  return calls.message({
    content: text,
    stopReason: geminiStopReason(candidate.finishReason, calls.any),
    id: str(r.responseId),
    reasoning,
    usage: geminiUsage(r.usageMetadata),
    metadata: Object.keys(meta).length > 0 ? { gemini: meta } : undefined,
  });
}

export interface GeminiRequest {
  systemInstruction?: { parts: { text: string }[] };
  contents: Obj[];
}

/**
 * The history as a Gemini request: system messages become `systemInstruction`; an AI message a
 * `model` turn whose parts carry back the thought signatures the model sent; tool results
 * `functionResponse` parts (`{ result }`, or `{ error }` for an error result), consecutive ones
 * in one `user` turn. Images and files are `inlineData` parts (base64) or `fileData` parts (a URL);
 * a tool result's images and files go in its function response's own `parts` as `inlineData`
 * (Gemini 3's multimodal function responses; a URL there throws `UnsupportedContentError`).
 *
 * @example const body = { ...toGemini(history), tools: toGeminiTools(specs) }
 */
export function toGemini(history: readonly Message[]): GeminiRequest {
  const system: string[] = [];
  const contents: Obj[] = [];
  const given = new Set<string>();
  for (const m of forRequest(history)) {
    switch (m.role) {
      case 'system':
        system.push(m.content);
        break;
      case 'user':
        contents.push({ role: 'user', parts: geminiParts(m.content) });
        break;
      case 'tool': {
        const text = textOf(m.content);
        const fr: Obj = { name: m.name, response: m.status === 'error' ? { error: text } : { result: text } };
        if (given.has(m.toolCallId)) fr.id = m.toolCallId;
        const media = functionResponseParts(m);
        if (media.length > 0) fr.parts = media;
        const last = contents[contents.length - 1];
        const part = { functionResponse: fr };
        if (last && last.role === 'user' && arr(last.parts).every((p) => obj(p).functionResponse !== undefined)) {
          (last.parts as Obj[]).push(part);
        } else {
          contents.push({ role: 'user', parts: [part] });
        }
        break;
      }
      case 'assistant': {
        const meta = obj(obj(m.metadata).gemini) as GeminiMetadata;
        const signatures = obj(meta.thoughtSignatures);
        for (const id of arr(meta.providerIds)) if (typeof id === 'string') given.add(id);
        const parts: Obj[] = [];
        if (m.content) {
          const part: Obj = { text: m.content };
          if (meta.textThoughtSignature) part.thoughtSignature = meta.textThoughtSignature;
          parts.push(part);
        }
        const calls = [
          ...m.toolCalls.map((c) => ({ id: c.id, name: c.name, args: c.args })),
          ...m.invalidToolCalls.map((c) => ({ id: c.id, name: c.name ?? 'unknown', args: {} })),
        ];
        for (const c of calls) {
          const fc: Obj = { name: c.name, args: c.args };
          if (given.has(c.id)) fc.id = c.id;
          const part: Obj = { functionCall: fc };
          const signature = str(signatures[c.id]);
          if (signature) part.thoughtSignature = signature;
          parts.push(part);
        }
        // An empty answer (the model said nothing) is left out: Gemini refuses a turn with no parts.
        if (parts.length > 0) contents.push({ role: 'model', parts });
        break;
      }
    }
  }
  return system.length > 0 ? { systemInstruction: { parts: [{ text: system.join('\n\n') }] }, contents } : { contents };
}

function geminiParts(content: Content): Obj[] {
  if (typeof content === 'string') return [{ text: content }];
  return content.map((part): Obj => {
    if (part.type === 'text') return { text: part.text };
    const media = mediaOf(part);
    if (media.kind === 'base64') return { inlineData: { mimeType: media.mediaType, data: media.base64 } };
    // fileData's mimeType is required: a URL's type is not known without fetching it.
    if (!media.mediaType)
      throw unsupported('gemini', part, media, 'a user message', 'a URL only with its mediaType given (fileData)');
    return { fileData: { mimeType: media.mediaType, fileUri: media.url } };
  });
}

/** A tool result's images and files as `FunctionResponsePart`s, each named for the model (`displayName`). */
function functionResponseParts(m: ToolMessage): Obj[] {
  return mediaParts(m.content).map((part, i) => {
    const media = mediaOf(part);
    // FunctionResponseFileData "is not supported in Gemini API" (Vertex AI only, per the genai SDK).
    if (media.kind === 'url')
      throw unsupported(
        'gemini',
        part,
        media,
        'a tool result',
        'images and files as base64 in a function response (inlineData)',
      );
    // Unique in the request: two calls of one tool each name their own.
    const displayName = part.type === 'file' && part.filename ? part.filename : `${m.toolCallId}-${i + 1}`;
    return { inlineData: { mimeType: media.mediaType, data: media.base64, displayName } };
  });
}

export interface ToGeminiToolsOptions {
  /**
   * `'parametersJsonSchema'` (default) sends the JSON Schema as it is; `'parameters'` sends
   * Gemini's older OpenAPI-subset field, with keywords it rejects removed.
   */
  schemaField?: 'parametersJsonSchema' | 'parameters';
}

/**
 * Tool specs as Gemini `tools`: one entry holding every function declaration.
 *
 * @example body.tools = toGeminiTools(await pool.specs())
 */
export function toGeminiTools(specs: readonly ToolSpec[], options: ToGeminiToolsOptions = {}): Obj[] {
  const field = options.schemaField ?? 'parametersJsonSchema';
  const functionDeclarations = validateToolSpecs(specs).map((spec) => ({
    name: spec.name,
    description: spec.description,
    [field]: field === 'parameters' ? toOpenAPISubset(spec.inputSchema) : spec.inputSchema,
  }));
  return [{ functionDeclarations }];
}

const OPENAPI_KEYS = new Set([
  'type',
  'format',
  'description',
  'nullable',
  'enum',
  'properties',
  'required',
  'items',
  'minItems',
  'maxItems',
  'minimum',
  'maximum',
  'minLength',
  'maxLength',
  'pattern',
  'anyOf',
  'propertyOrdering',
  'title',
  'default',
]);

/** Keep the keywords of Gemini's OpenAPI-3 subset, recursively. */
function toOpenAPISubset(schema: JSONSchema): JSONSchema {
  const out: JSONSchema = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!OPENAPI_KEYS.has(key)) continue;
    if (key === 'properties') {
      const props: JSONSchema = {};
      for (const [name, child] of Object.entries(obj(value))) {
        Object.defineProperty(props, name, {
          value: toOpenAPISubset(obj(child)),
          enumerable: true,
          writable: true,
          configurable: true,
        });
      }
      out.properties = props;
    } else if (key === 'items') out.items = toOpenAPISubset(obj(value));
    else if (key === 'anyOf') out.anyOf = arr(value).map((v) => toOpenAPISubset(obj(v)));
    else out[key] = value;
  }
  return out;
}
