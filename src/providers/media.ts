/**
 * Image and file parts as the provider converters need them: a URL, or base64 with a media type
 * always known; and the typed error for a part a provider cannot take.
 */
import { UnknownMediaTypeError } from '../errors/unknown-media-type-error';
import { UnsupportedContentError } from '../errors/unsupported-content-error';
import { readMediaData, sniffBase64 } from '../messages/media-data';
import type { Content, ContentPart, FilePart, ImagePart } from '../messages/types';

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
  const mediaType = read.mediaType ?? sniffBase64(read.base64);
  if (mediaType === undefined)
    throw new UnknownMediaTypeError({ part: part.type, source: `${read.base64.length} characters of base64` });
  return { kind: 'base64', base64: read.base64, mediaType };
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

/** A content's parts: a string is one text part. */
export function partsOf(content: Content): ContentPart[] {
  return typeof content === 'string' ? [{ type: 'text', text: content }] : content;
}

/** The image and file parts of a content (none for a string). */
export function mediaParts(content: Content): MediaPart[] {
  return typeof content === 'string' ? [] : content.filter((p): p is MediaPart => p.type !== 'text');
}

/** A name for an unnamed file, for providers that want one with inline data: `attachment-1.pdf`. */
export function fileName(part: FilePart, media: Media, n: number): string {
  if (part.filename) return part.filename;
  const subtype = (media.mediaType ?? 'application/octet-stream').split('/')[1] ?? 'bin';
  return `attachment-${n}.${subtype.replace(/[^\w.-]/g, '') || 'bin'}`;
}
