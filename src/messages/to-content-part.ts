import { describeValue } from '../errors/moat-error';
import { UnknownMediaTypeError } from '../errors/unknown-media-type-error';
import { isPlainObject } from '../json/json-value';
import {
  base64FromBytes,
  mediaDataProblem,
  normalMediaType,
  readMediaData,
  sniffMediaType,
  typeOfBase64,
} from './media-data';
import type { Content, ContentPart, ImagePart, TextPart } from './types';

/** Image or file data as a user hands it over: a `File`, a `Blob`, bytes, a `URL`, or a string (base64 or a URL). */
export type MediaInput = string | URL | Blob | ArrayBuffer | ArrayBufferView;

/** An image to read: `mediaType` is found from the `File`/`Blob`, a `data:` URL or the first bytes when left out. */
export interface ImagePartInput {
  type: 'image';
  data: MediaInput;
  mediaType?: string;
  /** Default: a `File`'s name. Shown to people, not sent to a model. */
  filename?: string;
}

/** A file (a PDF, say) to read: as an image, and `filename` defaults to a `File`'s name. */
export interface FilePartInput {
  type: 'file';
  data: MediaInput;
  mediaType?: string;
  filename?: string;
}

/** A part as a user gives it, before its data is read into a string. */
export type ContentPartInput = TextPart | ImagePartInput | FilePartInput;

/**
 * A part as a message holds it: a `File`, `Blob` or bytes read into base64 with their media
 * type (given, the blob's own, a `data:` URL's, or told by the first bytes: PNG, JPEG, GIF,
 * WebP, PDF); an http(s) URL kept as it is. Throws `UnknownMediaTypeError` when the type cannot
 * be told, a `TypeError` for anything that is not a part.
 *
 * @example const part = await toContentPart({ type: 'image', data: input.files[0] }) // { type: 'image', data: 'iVBO…', mediaType: 'image/png' }
 */
export async function toContentPart(input: ContentPartInput): Promise<ContentPart> {
  const data = isPlainObject(input) ? (input as { data?: unknown }).data : undefined;
  return readContentPart(input, isBlob(data) ? await blobBytes(data) : undefined);
}

/** A Blob's bytes, type and name, read (a `File` has a name). */
export interface BlobBytes {
  bytes: Uint8Array;
  type: string;
  name?: string | undefined;
}

async function blobBytes(blob: Blob): Promise<BlobBytes> {
  return withBytes(blob, new Uint8Array(await blob.arrayBuffer()));
}

/** A Blob's bytes, read however the caller could, with its type and (a `File`'s) name. */
export function withBytes(blob: Blob, bytes: Uint8Array): BlobBytes {
  const name = typeof (blob as File).name === 'string' ? (blob as File).name : undefined;
  return { bytes, type: blob.type, name };
}

/**
 * `toContentPart` for data already in memory: bytes, base64 or a URL; a `Blob`'s bytes read by
 * the caller (`blob`). Throws as `toContentPart` does.
 */
export function readContentPart(input: ContentPartInput, blob?: BlobBytes): ContentPart {
  if (!isPlainObject(input)) throw new TypeError(`Expected a content part, got ${describeValue(input)}`);
  const part = input as ContentPartInput;
  if (part.type === 'text') {
    if (typeof part.text !== 'string')
      throw new TypeError(`Expected a text part's \`text\` to be a string, got ${describeValue(part.text)}`);
    return { type: 'text', text: part.text };
  }
  if (part.type !== 'image' && part.type !== 'file')
    throw new TypeError(
      `Expected a part of type 'text', 'image' or 'file', got ${describeValue((part as { type: unknown }).type)}`,
    );
  const given = typeof part.mediaType === 'string' ? normalMediaType(part.mediaType) : undefined;
  if (part.mediaType !== undefined && given === undefined)
    throw new TypeError(
      `Expected \`mediaType\` to be type/subtype (image/png, say), got ${describeValue(part.mediaType)}`,
    );
  const read = readData(given === undefined ? part : { ...part, mediaType: given }, blob);
  const filename = part.filename ?? read.filename;
  if (filename !== undefined && typeof filename !== 'string')
    throw new TypeError(`Expected \`filename\` to be a string, got ${describeValue(filename)}`);
  if (part.type === 'image') {
    if (read.mediaType !== undefined && !read.mediaType.startsWith('image/'))
      throw new TypeError(`An image part holds ${read.mediaType}: send it as a { type: 'file' } part`);
    const image: ImagePart = { type: 'image', data: read.data };
    if (read.mediaType !== undefined) image.mediaType = read.mediaType;
    if (filename !== undefined) image.filename = filename;
    return image;
  }
  if (read.mediaType === undefined) throw new UnknownMediaTypeError({ part: 'file', source: read.source });
  return filename === undefined
    ? { type: 'file', data: read.data, mediaType: read.mediaType }
    : { type: 'file', data: read.data, mediaType: read.mediaType, filename };
}

/**
 * A message's content from what a user gives: a string as it is, each part read (`toContentPart`).
 *
 * @example userMessage(await toContent([{ type: 'text', text: 'What is this?' }, { type: 'image', data: file }]))
 */
export async function toContent(input: string | readonly ContentPartInput[]): Promise<Content> {
  if (typeof input === 'string') return input;
  if (!Array.isArray(input)) throw new TypeError(`Expected a text or a list of parts, got ${describeValue(input)}`);
  return Promise.all(input.map(toContentPart));
}

interface ReadData {
  data: string;
  mediaType: string | undefined;
  filename?: string;
  /** The data in words, for an error. */
  source: string;
}

function readData(part: ImagePartInput | FilePartInput, blob: BlobBytes | undefined): ReadData {
  const { data } = part;
  const what = `the ${part.type}'s data`;
  if (typeof data === 'string' || data instanceof URL) return readString(part, String(data), what);
  if (isBlob(data)) {
    if (!blob) throw new TypeError(`Expected ${what} to be read before: a Blob is read with toContentPart`);
    const { bytes, name } = blob;
    const source = `${name ? `the file '${name}'` : 'a Blob'} of ${bytes.length} bytes with no type`;
    // A browser says application/octet-stream for a file it cannot place: the bytes may tell.
    const type = normalMediaType(blob.type);
    const own = type === 'application/octet-stream' ? undefined : type;
    const read = fromBytes(part, bytes, own, source);
    return name === undefined ? read : { ...read, filename: name };
  }
  if (ArrayBuffer.isView(data)) {
    const bytes = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    return fromBytes(part, bytes, undefined, `${bytes.length} bytes`);
  }
  if (Object.prototype.toString.call(data) === '[object ArrayBuffer]') {
    const bytes = new Uint8Array(data as ArrayBuffer);
    return fromBytes(part, bytes, undefined, `${bytes.length} bytes`);
  }
  throw new TypeError(
    `Expected ${what} to be a File, a Blob, bytes, a URL or a string (base64 or a URL), got ${describeValue(data)}`,
  );
}

function readString(part: ImagePartInput | FilePartInput, data: string, what: string): ReadData {
  const problem = mediaDataProblem(data);
  if (problem) throw new TypeError(`Expected ${what} to be base64 or a URL, got ${describeValue(data)}: it ${problem}`);
  const read = readMediaData(data, part.mediaType);
  if (read.kind === 'url') {
    // A URL's type is not known without fetching it: an image may go without, a file may not.
    if (part.type === 'file' && part.mediaType === undefined)
      throw new UnknownMediaTypeError({
        part: 'file',
        source: `the URL ${data}`,
        message: `Cannot tell the media type of the file at ${data} without fetching it. Give \`mediaType\` on the part`,
      });
    return { data: read.url, mediaType: part.mediaType, source: `the URL ${data}` };
  }
  const mediaType = typeOfBase64(read.base64, read.mediaType, part.type);
  return { data: read.base64, mediaType, source: `${read.base64.length} characters of base64` };
}

function fromBytes(
  part: ImagePartInput | FilePartInput,
  bytes: Uint8Array,
  own: string | undefined,
  source: string,
): ReadData {
  const mediaType = part.mediaType ?? own ?? sniffMediaType(bytes);
  if (mediaType === undefined) throw new UnknownMediaTypeError({ part: part.type, source });
  return { data: base64FromBytes(bytes), mediaType, source };
}

export function isBlob(value: unknown): value is Blob {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as Blob).arrayBuffer === 'function' &&
    typeof (value as Blob).type === 'string' &&
    typeof (value as Blob).size === 'number'
  );
}
