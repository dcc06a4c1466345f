/**
 * Images and files of a thread kept as Blobs beside its checkpoints: a checkpoint's JSON holds a
 * reference (`moat-blob:<sha-256>`) where a part held base64, each blob is stored once per thread
 * however many checkpoints refer to it, and it is read back into base64 when a checkpoint is.
 * Pure but for `crypto.subtle`; the IndexedDB checkpointer does the storing.
 */
import { AttachmentTooLargeError } from '../errors/attachment-too-large-error';
import { isPlainObject, type JSONValue } from '../json/json-value';
import { base64FromBytes, bytesFromBase64, readMediaData } from '../messages/media-data';

const REF = 'moat-blob:';

/** A blob as the checkpointer stores it, by thread and content hash. */
export interface StoredBlob {
  threadId: string;
  id: string;
  blob: Blob;
  size: number;
}

/** How large an attachment, and all a thread's together, may be (bytes). */
export interface AttachmentLimits {
  maxAttachmentBytes: number;
  maxThreadBytes: number;
}

export const DEFAULT_ATTACHMENT_LIMITS: AttachmentLimits = {
  maxAttachmentBytes: 20 * 1024 * 1024,
  maxThreadBytes: 200 * 1024 * 1024,
};

/** The media parts of stored messages: user and tool messages whose content is a list. */
function* mediaParts(messages: JSONValue[]): Generator<Record<string, JSONValue>> {
  for (const message of messages) {
    if (!isPlainObject(message) || (message.role !== 'user' && message.role !== 'tool')) continue;
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content)
      if (isPlainObject(part) && (part.type === 'image' || part.type === 'file') && typeof part.data === 'string')
        yield part;
  }
}

/** Whether stored messages hold an image or file as base64 (a thread of text needs no blobs). */
export function holdsMedia(messages: JSONValue[]): boolean {
  for (const part of mediaParts(messages)) if (readMediaData(part.data as string).kind === 'base64') return true;
  return false;
}

/**
 * The messages with each part's base64 replaced by a reference, and a blob for each distinct
 * image or file. Throws `AttachmentTooLargeError` for one past `maxAttachmentBytes`.
 */
export async function takeOutMedia(
  threadId: string,
  messages: JSONValue[],
  limits: AttachmentLimits,
): Promise<{ messages: JSONValue[]; blobs: StoredBlob[] }> {
  const copy = structuredClone(messages);
  const fresh = new Map<string, StoredBlob>();
  for (const part of mediaParts(copy)) {
    const read = readMediaData(part.data as string, part.mediaType as string | undefined);
    if (read.kind === 'url') continue;
    const bytes = bytesFromBase64(read.base64);
    if (bytes.length > limits.maxAttachmentBytes)
      throw new AttachmentTooLargeError({
        threadId,
        bytes: bytes.length,
        limit: limits.maxAttachmentBytes,
        of: 'attachment',
      });
    const id = await sha256(bytes);
    part.data = `${REF}${id}`;
    if (!fresh.has(id))
      fresh.set(id, {
        threadId,
        id,
        blob: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: read.mediaType ?? '' }),
        size: bytes.length,
      });
  }
  return { messages: copy, blobs: [...fresh.values()] };
}

/**
 * The blobs the thread does not have yet (`known`: the ids it has, with their sizes). Throws
 * `AttachmentTooLargeError` when with them the thread would pass `maxThreadBytes`.
 */
export function newBlobs(
  threadId: string,
  blobs: readonly StoredBlob[],
  known: ReadonlyMap<string, number>,
  limits: AttachmentLimits,
): StoredBlob[] {
  const fresh = blobs.filter((b) => !known.has(b.id));
  let total = 0;
  for (const size of known.values()) total += size;
  for (const blob of fresh) total += blob.size;
  if (fresh.length > 0 && total > limits.maxThreadBytes)
    throw new AttachmentTooLargeError({ threadId, bytes: total, limit: limits.maxThreadBytes, of: 'thread' });
  return fresh;
}

/** A copy of the messages with each reference read back into base64 (`read` gives a blob by id). */
export async function putBackMedia(
  messages: JSONValue[],
  read: (id: string) => Promise<Blob | undefined>,
): Promise<JSONValue[]> {
  const refs = [...mediaParts(messages)].some((p) => (p.data as string).startsWith(REF));
  if (!refs) return messages;
  const copy = structuredClone(messages);
  const parts = [...mediaParts(copy)].filter((p) => (p.data as string).startsWith(REF));
  for (const part of parts) {
    const id = (part.data as string).slice(REF.length);
    const blob = await read(id);
    if (!blob) throw new Error(`the image or file ${id} this checkpoint refers to is not stored`);
    part.data = base64FromBytes(new Uint8Array(await blob.arrayBuffer()));
  }
  return copy;
}

async function sha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>));
  return Array.from(digest, (b) => b.toString(16).padStart(2, '0')).join('');
}
