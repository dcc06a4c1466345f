/**
 * The `data` of an image or file part, read: a URL the provider fetches, or base64 bytes with
 * their media type. Pure string and byte work (no DOM), shared by the message checks, the input
 * normaliser and the provider converters.
 */
import { UnknownMediaTypeError } from '../errors/unknown-media-type-error';

/** A part's data, read: where it is, and as much of its type as is known. */
export type MediaData =
  | { kind: 'url'; url: string }
  | { kind: 'base64'; base64: string; mediaType: string | undefined };

const HTTP_URL = /^https?:\/\/\S+$/i;
/** `type/subtype`, as a part's `mediaType` must be (lower case, no parameters). */
export const MEDIA_TYPE = /^[a-z0-9][a-z0-9_.+-]*\/[a-z0-9_.+-]+$/;
const DATA_URL = /^data:([^,;]*)((?:;[^,;]*)*);base64,(.*)$/is;
/** A character base64 does not use ('=' aside). */
const NOT_BASE64 = /[^A-Za-z0-9+/=]/;

/**
 * Whether `text` is base64: its characters, then at most two '='. What `/^[A-Za-z0-9+/]+={0,2}$/`
 * says, about five times as fast on megabytes (every model request checks each image's data):
 * one search for a stray character, and `indexOf` for the padding.
 */
export function isBase64(text: string): boolean {
  if (text === '' || NOT_BASE64.test(text)) return false;
  const pad = text.indexOf('=');
  if (pad === -1) return true;
  const padding = text.length - pad;
  return pad > 0 && (padding === 1 || (padding === 2 && text.charCodeAt(pad + 1) === 61));
}

/** What is wrong with a string as a part's `data` (base64, an http(s) URL or a base64 `data:` URL), or undefined. */
export function mediaDataProblem(data: string): string | undefined {
  if (data === '') return 'is empty';
  if (/^[a-z][a-z0-9+.-]*:/i.test(data)) {
    if (HTTP_URL.test(data)) return undefined;
    const m = DATA_URL.exec(data);
    if (m) return isBase64(m[3] ?? '') ? undefined : 'is a data: URL whose payload is not base64';
    if (/^data:/i.test(data)) return 'is a data: URL that is not base64 (data:<type>;base64,<data>)';
    return `is a URL Moat cannot send (${JSON.stringify(data.slice(0, data.indexOf(':') + 1))}): use base64, an http(s) URL or a base64 data: URL`;
  }
  return isBase64(data) ? undefined : 'is neither base64 nor an http(s) or data: URL';
}

/**
 * A part's data and media type, read. A `data:` URL gives its own type when the part names none.
 *
 * @example readMediaData('data:image/png;base64,iVBO…') // { kind: 'base64', base64: 'iVBO…', mediaType: 'image/png' }
 */
export function readMediaData(data: string, mediaType?: string): MediaData {
  const m = DATA_URL.exec(data);
  if (m)
    return { kind: 'base64', base64: m[3] ?? '', mediaType: mediaType ?? (m[1] ? normalMediaType(m[1]) : undefined) };
  if (isFetchedURL(data)) return { kind: 'url', url: data };
  return { kind: 'base64', base64: data, mediaType };
}

/** Whether a part's `data` is an http(s) URL: something the page or the provider would fetch. */
export function isFetchedURL(data: string): boolean {
  return /^https?:/i.test(data);
}

/**
 * The media type of base64 data: the one it came with, else the one its first bytes tell;
 * `UnknownMediaTypeError` when neither does.
 */
export function typeOfBase64(base64: string, mediaType: string | undefined, part: 'image' | 'file'): string {
  const type = mediaType ?? sniffBase64(base64);
  if (type === undefined) throw new UnknownMediaTypeError({ part, source: `${base64.length} characters of base64` });
  return type;
}

/**
 * A media type as a part holds it: parameters dropped, lower case (`Image/PNG` → `image/png`,
 * `text/plain; charset=utf-8` → `text/plain`); undefined when it is not `type/subtype`.
 */
export function normalMediaType(raw: string): string | undefined {
  const type = raw.split(';')[0]?.trim().toLowerCase() ?? '';
  return MEDIA_TYPE.test(type) ? type : undefined;
}

/**
 * Whether a file of this type is text a model reads as it is (plain text, Markdown, CSV, JSON,
 * XML, code): such files are sent as text parts, since most providers take only PDFs as documents.
 */
export function isTextType(mediaType: string): boolean {
  return (
    mediaType.startsWith('text/') ||
    /^application\/(json|xml|csv|x-ndjson|ld\+json|yaml|x-yaml|toml|javascript|typescript|x-sh|sql)$/.test(mediaType) ||
    /\+(json|xml)$/.test(mediaType)
  );
}

/** A data: URL for base64 bytes. */
export function dataURL(mediaType: string, base64: string): string {
  return `data:${mediaType};base64,${base64}`;
}

/**
 * The media type the first bytes announce: PNG, JPEG, GIF, WebP or PDF; undefined for anything else.
 *
 * @example sniffMediaType(new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d])) // 'application/pdf'
 */
export function sniffMediaType(bytes: Uint8Array): string | undefined {
  const starts = (offset: number, ...expected: number[]) => expected.every((b, i) => bytes[offset + i] === b);
  if (starts(0, 0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a)) return 'image/png';
  if (starts(0, 0xff, 0xd8, 0xff)) return 'image/jpeg';
  if (starts(0, 0x47, 0x49, 0x46, 0x38) && (bytes[4] === 0x37 || bytes[4] === 0x39) && bytes[5] === 0x61)
    return 'image/gif';
  if (starts(0, 0x52, 0x49, 0x46, 0x46) && starts(8, 0x57, 0x45, 0x42, 0x50)) return 'image/webp';
  if (starts(0, 0x25, 0x50, 0x44, 0x46, 0x2d)) return 'application/pdf';
  return undefined;
}

/** The media type base64 data announces in its first bytes (see `sniffMediaType`). */
export function sniffBase64(base64: string): string | undefined {
  // 16 characters are 12 bytes, enough for every signature above.
  const head = headBytes(base64, 16);
  return head && sniffMediaType(head);
}

/** The bytes of base64's first `chars` characters (whole groups of four); undefined when they are not base64. */
function headBytes(base64: string, chars: number): Uint8Array | undefined {
  const head = base64.slice(0, chars);
  try {
    return bytesFromBase64(head.slice(0, head.length - (head.length % 4)));
  } catch {
    return undefined;
  }
}

/** Bytes as base64, in chunks (a spread of megabytes would overflow the call stack). */
export function base64FromBytes(bytes: Uint8Array): string {
  // Native where the engine has it (Chromium 140+, Firefox 133+): many times faster.
  const native = (bytes as { toBase64?: () => string }).toBase64;
  if (typeof native === 'function') return native.call(bytes);
  let binary = '';
  const chunk = 0x8000;
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk));
  return btoa(binary);
}

/** Base64 as bytes (native where the engine has `Uint8Array.fromBase64`). */
export function bytesFromBase64(base64: string): Uint8Array {
  const native = (Uint8Array as { fromBase64?: (s: string) => Uint8Array }).fromBase64;
  if (typeof native === 'function') return native(base64);
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
}

/** Base64 as UTF-8 text (a text file sent as text). */
export function textFromBase64(base64: string): string {
  return new TextDecoder().decode(bytesFromBase64(base64));
}

/**
 * An image's width and height, read from the first bytes of a PNG, GIF or JPEG (base64);
 * undefined for anything else.
 *
 * @example imageSize(pngBase64) // { width: 640, height: 480 }
 */
export function imageSize(base64: string): { width: number; height: number } | undefined {
  // 64 KB is enough to reach a JPEG's frame header past its metadata, most of the time.
  const b = headBytes(base64, 87_384);
  if (!b) return undefined;
  const u16be = (i: number) => ((b[i] ?? 0) << 8) | (b[i + 1] ?? 0);
  const u32be = (i: number) => u16be(i) * 65_536 + u16be(i + 2);
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return { width: u32be(16), height: u32be(20) };
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46)
    return { width: (b[6] ?? 0) | ((b[7] ?? 0) << 8), height: (b[8] ?? 0) | ((b[9] ?? 0) << 8) };
  if (b[0] === 0xff && b[1] === 0xd8) {
    // Walk the segments to a start-of-frame marker (C0–CF, except C4, C8 and CC).
    for (let i = 2; i + 9 < b.length; ) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1] ?? 0;
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { width: u16be(i + 7), height: u16be(i + 5) };
      i += 2 + u16be(i + 2);
    }
  }
  return undefined;
}
