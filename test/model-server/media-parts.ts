/**
 * Each provider's image and file parts, checked as its API does (what a client can get wrong: a
 * part type it does not know, data that is not base64, a media type it does not read, a field
 * missing), each problem in the provider's words. Written apart from Moat's converters and its
 * own data checks: the server judges what the clients send, it does not share their rules.
 */
import { list, obj } from './wire-format';

type Obj = Record<string, unknown>;

const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
const isBase64 = (v: unknown) => typeof v === 'string' && v.length % 4 === 0 && BASE64.test(v);
const isHttp = (v: unknown) => typeof v === 'string' && /^https?:\/\/[^\s/]+/i.test(v);
/** A base64 data: URL, its media type and payload; undefined for anything else. */
function dataURL(v: unknown): { mediaType: string; base64: string } | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^data:([\w.+-]+\/[\w.+-]+);base64,(.*)$/s.exec(v);
  return m && isBase64(m[2]) ? { mediaType: m[1] as string, base64: m[2] as string } : undefined;
}
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

/** OpenAI Chat: a user or system message's content parts; `textOnly` for a tool message's. */
export function openAIChatParts(content: unknown, at: string, textOnly = false): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return `Invalid '${at}': expected a string or an array of content parts.`;
  for (const [i, raw] of content.entries()) {
    const p = obj(raw);
    const here = `${at}[${i}]`;
    const allowed = textOnly ? ['text'] : ['text', 'image_url', 'input_audio', 'file'];
    if (!allowed.includes(String(p.type)))
      return `Invalid value: '${String(p.type)}'. Supported values are: ${allowed.map((t) => `'${t}'`).join(', ')}.`;
    if (p.type === 'text' && typeof p.text !== 'string') return `Missing required parameter: '${here}.text'.`;
    if (p.type === 'image_url') {
      const url = obj(p.image_url).url;
      if (typeof url !== 'string') return `Missing required parameter: '${here}.image_url.url'.`;
      const data = dataURL(url);
      if (!isHttp(url) && !(data && IMAGE_TYPES.includes(data.mediaType)))
        return `Invalid '${here}.image_url.url': expected a URL or a base64 data URL of a PNG, JPEG, GIF or WebP image.`;
    }
    if (p.type === 'file') {
      const file = obj(p.file);
      if (file.file_data === undefined && file.file_id === undefined)
        return `Invalid '${here}.file': one of 'file_data' or 'file_id' is required.`;
      if (file.file_data !== undefined && !dataURL(file.file_data))
        return `Invalid '${here}.file.file_data': expected base64 file data as a data URL.`;
      if (file.filename !== undefined && typeof file.filename !== 'string')
        return `Invalid type for '${here}.file.filename': expected a string.`;
    }
  }
  return undefined;
}

/** OpenAI Responses: a message's content, or a function_call_output's output list. */
export function openAIResponsesParts(content: unknown, at: string): string | undefined {
  if (typeof content === 'string') return undefined;
  if (!Array.isArray(content)) return `Invalid '${at}': expected a string or an array.`;
  for (const [i, raw] of content.entries()) {
    const p = obj(raw);
    const here = `${at}[${i}]`;
    if (!['input_text', 'input_image', 'input_file', 'output_text', 'refusal'].includes(String(p.type)))
      return `Invalid value: '${String(p.type)}'. Supported values are: 'input_text', 'input_image', 'input_file', 'output_text' and 'refusal'.`;
    if ((p.type === 'input_text' || p.type === 'output_text') && typeof p.text !== 'string')
      return `Missing required parameter: '${here}.text'.`;
    if (p.type === 'input_image') {
      if (p.image_url === undefined && p.file_id === undefined)
        return `Invalid '${here}': one of 'image_url' or 'file_id' is required.`;
      const data = dataURL(p.image_url);
      if (p.image_url !== undefined && !isHttp(p.image_url) && !(data && IMAGE_TYPES.includes(data.mediaType)))
        return `Invalid '${here}.image_url': expected a fully qualified URL or a base64 image in a data URL.`;
      if (p.detail !== undefined && !['low', 'high', 'auto', 'original'].includes(String(p.detail)))
        return `Invalid value for '${here}.detail': '${String(p.detail)}'.`;
    }
    if (p.type === 'input_file') {
      if (p.file_data === undefined && p.file_id === undefined && p.file_url === undefined)
        return `Invalid '${here}': one of 'file_data', 'file_id' or 'file_url' is required.`;
      if (p.file_data !== undefined && !dataURL(p.file_data))
        return `Invalid '${here}.file_data': expected base64 file data as a data URL.`;
      if (p.file_url !== undefined && !isHttp(p.file_url)) return `Invalid '${here}.file_url': expected a URL.`;
    }
  }
  return undefined;
}

function anthropicMedia(block: Obj, at: string): string | undefined {
  const source = obj(block.source);
  if (block.type === 'image') {
    if (source.type === 'url') return isHttp(source.url) ? undefined : `${at}.source.url: Input should be a valid URL`;
    if (source.type !== 'base64') return `${at}.source.type: Input should be 'base64', 'url' or 'file'`;
    if (!IMAGE_TYPES.includes(String(source.media_type)))
      return `${at}.source.media_type: Input should be 'image/jpeg', 'image/png', 'image/gif' or 'image/webp'`;
    return isBase64(source.data) ? undefined : `${at}.source.base64: invalid base64 data`;
  }
  if (source.type === 'url') return isHttp(source.url) ? undefined : `${at}.source.url: Input should be a valid URL`;
  if (source.type === 'text')
    return source.media_type === 'text/plain' && typeof source.data === 'string'
      ? undefined
      : `${at}.source: a text source needs media_type 'text/plain' and data`;
  if (source.type !== 'base64')
    return `${at}.source.type: Input should be 'base64', 'text', 'content', 'url' or 'file'`;
  if (source.media_type !== 'application/pdf') return `${at}.source.media_type: Input should be 'application/pdf'`;
  if (block.title !== undefined && typeof block.title !== 'string')
    return `${at}.title: Input should be a valid string`;
  return isBase64(source.data) ? undefined : `${at}.source.base64: invalid base64 data`;
}

/** Anthropic: a content block of a user turn, a tool_result's content blocks included. */
export function anthropicBlock(block: Obj, at: string): string | undefined {
  if (block.type === 'text') return typeof block.text === 'string' ? undefined : `${at}.text: Field required`;
  if (block.type === 'image' || block.type === 'document') return anthropicMedia(block, at);
  if (block.type === 'tool_result') {
    if (block.content === undefined || typeof block.content === 'string') return undefined;
    if (!Array.isArray(block.content)) return `${at}.content: Input should be a valid list`;
    for (const [j, raw] of block.content.entries()) {
      const inner = obj(raw);
      if (!['text', 'image', 'document', 'search_result'].includes(String(inner.type)))
        return `${at}.content.${j}.type: Input tag '${String(inner.type)}' found using 'type' does not match any of the expected tags: 'text', 'image', 'search_result', 'document'`;
      const problem = anthropicBlock(inner, `${at}.content.${j}`);
      if (problem) return problem;
    }
  }
  return undefined;
}

function geminiBlob(blob: Obj, at: string): string | undefined {
  if (typeof blob.mimeType !== 'string' || blob.mimeType === '') return `* ${at}.mime_type: MIME type is required.`;
  if (!isBase64(blob.data)) return `* ${at}.data: Invalid value (bytes), invalid base64 data.`;
  return undefined;
}

/** Gemini: a part's inlineData or fileData, and a function response's own parts. */
export function geminiPart(part: Obj, at: string): string | undefined {
  if (part.inlineData !== undefined) return geminiBlob(obj(part.inlineData), `${at}.inline_data`);
  if (part.fileData !== undefined) {
    const file = obj(part.fileData);
    if (typeof file.fileUri !== 'string' || file.fileUri === '') return `* ${at}.file_data.file_uri: URI is required.`;
    if (typeof file.mimeType !== 'string' || file.mimeType === '')
      return `* ${at}.file_data.mime_type: MIME type is required.`;
  }
  if (part.functionResponse !== undefined) {
    for (const [k, raw] of list(obj(part.functionResponse).parts).entries()) {
      const p = obj(raw);
      const here = `${at}.function_response.parts[${k}]`;
      if (p.fileData !== undefined) return `* ${here}.file_data: file_data is not supported in a function response.`;
      if (p.inlineData === undefined) return `* ${here}: inline_data is required.`;
      const problem = geminiBlob(obj(p.inlineData), `${here}.inline_data`);
      if (problem) return problem;
    }
  }
  return undefined;
}

/** Ollama: a message's `images`, base64 without a data: prefix (Go's decoder reports the first bad byte). */
export function ollamaImages(images: unknown): string | undefined {
  if (images === undefined) return undefined;
  if (!Array.isArray(images)) return 'json: cannot unmarshal images into Go struct field Message.messages.images';
  for (const image of images) {
    if (typeof image !== 'string') return 'json: cannot unmarshal images into Go struct field Message.messages.images';
    if (!isBase64(image)) {
      const at = [...image].findIndex((c) => !/[A-Za-z0-9+/=]/.test(c));
      return `illegal base64 data at input byte ${at < 0 ? image.length : at}`;
    }
  }
  return undefined;
}
