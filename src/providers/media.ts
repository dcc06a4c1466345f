/**
 * Image and file parts as the provider converters need them: a URL, or base64 with a media type
 * always known; and the typed error for a part a provider cannot take.
 */
import { UnsupportedContentError } from '../errors/unsupported-content-error';
import { dataURL, isTextType, readMediaData, textFromBase64, typeOfBase64 } from '../messages/media-data';
import { checkMessages } from '../messages/message-json';
import { textOf } from '../messages/text-of';
import type { Content, ContentPart, FilePart, ImagePart, Message, ToolMessage } from '../messages/types';
import type { Obj } from './wire';

export type MediaPart = ImagePart | FilePart;

/** A part's data, read for a request. */
export type Media =
  | { kind: 'url'; url: string; mediaType?: string }
  | { kind: 'base64'; base64: string; mediaType: string };

/** Where a part was, for an error: `a user message`, `a tool result`. */
export type Where = 'a user message' | 'a tool result';

/**
 * The part's data: a URL as it is, base64 (a `data:` URL's too) with its media type, told by the
 * first bytes when the part names none (`UnknownMediaTypeError` when they do not tell).
 */
export function mediaOf(part: MediaPart): Media {
  const read = readMediaData(part.data, part.mediaType);
  if (read.kind === 'url') return part.mediaType ? { ...read, mediaType: part.mediaType } : read;
  return { kind: 'base64', base64: read.base64, mediaType: typeOfBase64(read.base64, read.mediaType, part.type) };
}

/** `an image part (image/png)`, `a file part at https://…` */
export function describePart(part: MediaPart, media: Media = mediaOf(part)): string {
  const kind = part.type === 'image' ? 'an image part' : 'a file part';
  if (media.kind === 'url') return `${kind} at ${media.url.length > 60 ? `${media.url.slice(0, 59)}…` : media.url}`;
  return `${kind} (${media.mediaType})`;
}

/** The error for a part the provider cannot take; thrown while the request is built. */
export function unsupported(
  provider: string,
  part: MediaPart,
  media: Media,
  where: Where,
  accepted: string,
): UnsupportedContentError {
  return new UnsupportedContentError({ provider, part: describePart(part, media), where, accepted });
}

/**
 * The history as a converter sends it: checked (`checkMessages`), each text-like file (plain
 * text, Markdown, CSV, JSON… held as base64) read into a text part that names it, since most
 * providers take only PDFs as documents; empty text parts left out (Anthropic refuses them).
 */
export function forRequest(history: readonly Message[]): Message[] {
  return checkMessages(history).map((m) => {
    if ((m.role !== 'user' && m.role !== 'tool') || typeof m.content === 'string') return m;
    const parts = m.content.map(textFileAsText).filter((p) => p.type !== 'text' || p.text !== '');
    return { ...m, content: parts.length > 0 ? parts : '' };
  });
}

function textFileAsText(part: ContentPart): ContentPart {
  if (part.type !== 'file' || !isTextType(part.mediaType)) return part;
  const read = readMediaData(part.data, part.mediaType);
  if (read.kind === 'url') return part;
  const name = part.filename ? ` name=${JSON.stringify(part.filename)}` : '';
  return {
    type: 'text',
    text: `<file${name} type="${part.mediaType}">\n${textFromBase64(read.base64)}\n</file>`,
  };
}

/** A part's data as a URL: its own, or a data: URL for base64. */
export function urlOf(media: Media): string {
  return media.kind === 'url' ? media.url : dataURL(media.mediaType, media.base64);
}

/** What a tool message says when its images and files follow in a user message. */
export function toolTextBeforeMedia(m: ToolMessage): string {
  const text = textOf(m.content);
  return `${text ? `${text}\n` : ''}(The images or files it returned follow in a user message.)`;
}

/**
 * For providers whose tool messages take text only (Chat Completions, Ollama): each message
 * converted, and after each run of tool messages one user message (`media`) with the images and
 * files those results held.
 */
export function withToolMediaAfter(
  history: readonly Message[],
  convert: (m: Message) => Obj,
  media: (results: ToolMessage[]) => Obj,
): Obj[] {
  const out: Obj[] = [];
  let run: ToolMessage[] = [];
  const flush = () => {
    if (run.length > 0) out.push(media(run));
    run = [];
  };
  for (const m of history) {
    if (m.role !== 'tool') flush();
    out.push(convert(m));
    if (m.role === 'tool' && mediaParts(m.content).length > 0) run.push(m);
  }
  flush();
  return out;
}

/** The image and file parts of a content (none for a string). */
export function mediaParts(content: Content): MediaPart[] {
  return typeof content === 'string' ? [] : content.filter((p): p is MediaPart => p.type !== 'text');
}

const EXTENSIONS: Record<string, string> = {
  'application/pdf': 'pdf',
  'text/plain': 'txt',
  'text/markdown': 'md',
  'text/csv': 'csv',
  'text/html': 'html',
  'application/json': 'json',
  'application/msword': 'doc',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'xlsx',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'pptx',
};

/**
 * A name for an unnamed file, for providers that want one with inline data (OpenAI reads the
 * type from its extension): `attachment-1.pdf`.
 */
export function fileName(part: FilePart, media: Media, n: number): string {
  if (part.filename) return part.filename;
  const type = media.mediaType ?? '';
  const extension = EXTENSIONS[type] ?? (type.split('/')[1]?.replace(/[^\w]/g, '') || 'bin');
  return `attachment-${n}.${extension}`;
}
