import { LocalModelError } from '../errors/local-model-error';
import { describeValue } from '../errors/moat-error';
import { checkSignal } from '../errors/option-checks';

/** How far a download has come. `total` is 0 while the server has not said. */
export interface DownloadProgress {
  loaded: number;
  total: number;
}

export interface DownloadOptions {
  /** Called as bytes arrive (at most once per chunk the network hands over). */
  onProgress?: (progress: DownloadProgress) => void;
  signal?: AbortSignal;
}

/** A model kept in this browser's storage. */
export interface CachedModel {
  url: string;
  /** Bytes kept. */
  size: number;
  /** The file's whole size, as its server said. */
  total: number;
  /** False for a download that was interrupted: the next load resumes it. */
  complete: boolean;
}

/** What is kept beside a model's parts. */
interface Kept {
  url: string;
  total: number;
  etag: string;
  complete: boolean;
}

const DIRECTORY = 'moat-models';
/**
 * A model is kept as numbered parts of at most this size, each committed when it is full: OPFS
 * commits a file when its writer closes, so an interrupted download keeps every full part (and the
 * part being written, when the page lives to close it), and resumes from there.
 */
const PART_SIZE = 32 * 1024 * 1024;
const GGUF_MAGIC = [0x47, 0x47, 0x55, 0x46]; // "GGUF"

/**
 * The model at `url`, from this browser's storage (the Origin Private File System) when it was
 * downloaded before, else downloaded into it: resumed with a `Range` request when an earlier
 * download was interrupted, checked to begin as a GGUF file, refused early when the storage has
 * no room for it. Rejects with `LocalModelError` (`download`, `storage-full`, `not-gguf`) or the
 * signal's reason.
 *
 * @example
 * const file = await downloadModel('/models/qwen2.5-0.5b-instruct-q4_k_m.gguf', {
 *   onProgress: ({ loaded, total }) => (bar.value = loaded / total),
 * });
 */
export async function downloadModel(url: string, options: DownloadOptions = {}): Promise<Blob> {
  const source = absolute(url);
  try {
    return await download(source, options);
  } catch (error) {
    if (!isQuotaError(error)) throw error;
    // A write outside the body's (the record, a new part's file) found the storage full.
    await removeModel(await modelsDirectory(), await keyOf(source)).catch(() => {});
    throw new LocalModelError({
      reason: 'storage-full',
      source,
      detail: "does not fit in this browser's storage",
      cause: error,
    });
  }
}

async function download(source: string, options: DownloadOptions): Promise<Blob> {
  const signal = checkSignal(options.signal);
  signal?.throwIfAborted();
  const onProgress = options.onProgress;
  if (onProgress !== undefined && typeof onProgress !== 'function')
    throw new TypeError(`Expected \`onProgress\` to be a function, got ${describeValue(onProgress)}`);
  const dir = await modelsDirectory();
  const key = await keyOf(source);
  const record = await readRecord(dir, key);
  const parts = await partsOf(dir, key);
  const kept = parts.reduce((sum, file) => sum + file.size, 0);
  if (record?.complete && record.url === source && kept === record.total) {
    onProgress?.({ loaded: kept, total: kept });
    return new Blob(parts);
  }
  const resumeFrom = record && !record.complete && record.url === source && kept > 0 ? kept : 0;
  if (resumeFrom === 0 && parts.length > 0) await removeModel(dir, key);

  const headers: Record<string, string> = resumeFrom > 0 ? { range: `bytes=${resumeFrom}-` } : {};
  // If the file changed since, the server sends all of it (200) instead of the rest. (If-Range
  // takes only a strong validator.)
  if (resumeFrom > 0 && record?.etag && !record.etag.startsWith('W/')) headers['if-range'] = record.etag;
  let response: Response;
  try {
    response = await fetch(source, { headers, ...(signal ? { signal } : {}) });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    throw new LocalModelError({ reason: 'download', source, detail: 'could not be fetched', cause: error });
  }
  if (!response.ok || !response.body)
    throw new LocalModelError({ reason: 'download', source, detail: `was refused: HTTP ${response.status}` });
  // A server that ignores Range (or whose file changed: If-Range) sends the whole file again.
  const resumed = resumeFrom > 0 && response.status === 206;
  if (resumeFrom > 0 && !resumed) await removeModel(dir, key);
  const start = resumed ? resumeFrom : 0;
  const length = Number(response.headers.get('content-length') ?? 0);
  const total = resumed ? totalOfRange(response) || start + length : length;
  const etag = response.headers.get('etag') ?? '';

  if (total > 0) await checkRoom(total - start, source, response);
  await writeRecord(dir, key, { url: source, total, etag, complete: false });

  let loaded = start;
  let index = resumed ? parts.length : 0;
  let writer: FileSystemWritableFileStream | undefined;
  let partSize = 0;
  let checkedMagic = start > 0;
  const head: number[] = [];
  const reader = response.body.getReader();
  onProgress?.({ loaded, total });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (!checkedMagic) {
        for (let i = 0; i < value.length && head.length < 4; i++) head.push(value[i] as number);
        if (head.length >= 4 || value.length === 0) {
          checkedMagic = true;
          if (!GGUF_MAGIC.every((b, i) => head[i] === b))
            throw new LocalModelError({
              reason: 'not-gguf',
              source,
              detail: `is not a GGUF file (it begins ${describeBytes(head)}, a GGUF file begins "GGUF")`,
            });
        }
      }
      let at = 0;
      while (at < value.length) {
        if (!writer) {
          const handle = await stored(dir.getFileHandle(partName(key, index), { create: true }));
          writer = await stored(handle.createWritable());
          partSize = 0;
        }
        const piece = value.subarray(at, at + (PART_SIZE - partSize));
        await stored(writer.write(piece));
        partSize += piece.length;
        at += piece.length;
        if (partSize === PART_SIZE) {
          await stored(writer.close());
          writer = undefined;
          index++;
        }
      }
      loaded += value.length;
      onProgress?.({ loaded, total });
    }
    if (writer) await stored(writer.close());
    writer = undefined;
  } catch (error) {
    await reader.cancel().catch(() => {});
    // Keep what arrived (the next load resumes), unless it is not a model at all or cannot fit.
    if (writer)
      await (LocalModelError.isInstance(error) || error instanceof StorageRefused
        ? writer.abort()
        : writer.close()
      ).catch(() => {});
    if (LocalModelError.isInstance(error) && error.reason === 'not-gguf') await removeModel(dir, key);
    if (signal?.aborted) throw signal.reason;
    if (error instanceof StorageRefused) {
      // It cannot be finished here: what was written goes, and the storage is the app's again.
      await removeModel(dir, key);
      throw new LocalModelError({
        reason: 'storage-full',
        source,
        detail: `does not fit in this browser's storage (it stopped after ${loaded} of ${total} bytes: ${error.said})`,
        cause: error.cause,
      });
    }
    if (LocalModelError.isInstance(error)) throw error;
    throw new LocalModelError({
      reason: 'download',
      source,
      detail: `broke off after ${loaded} of ${total} bytes (the next load resumes from there)`,
      cause: error,
    });
  }
  if (total > 0 && loaded !== total)
    throw new LocalModelError({
      reason: 'download',
      source,
      detail: `ended after ${loaded} of ${total} bytes (the next load resumes from there)`,
    });
  if (!checkedMagic)
    throw new LocalModelError({ reason: 'not-gguf', source, detail: 'is empty: a GGUF file begins "GGUF"' });
  await writeRecord(dir, key, { url: source, total: loaded, etag, complete: true });
  return new Blob(await partsOf(dir, key));
}

/**
 * The models kept in this browser's storage, complete or interrupted.
 *
 * @example
 * for (const m of await cachedModels()) console.log(m.url, m.size, m.complete);
 */
export async function cachedModels(): Promise<CachedModel[]> {
  const dir = await modelsDirectory();
  const out: CachedModel[] = [];
  for await (const name of namesIn(dir)) {
    if (!name.endsWith('.json')) continue;
    const key = name.slice(0, -'.json'.length);
    const record = await readRecord(dir, key);
    if (!record) continue;
    const size = (await partsOf(dir, key)).reduce((sum, file) => sum + file.size, 0);
    out.push({ url: record.url, size, total: record.total, complete: record.complete && size === record.total });
  }
  return out.sort((a, b) => a.url.localeCompare(b.url));
}

/**
 * Removes a model (complete or interrupted) from this browser's storage. True if one was kept.
 *
 * @example
 * await deleteCachedModel('/models/qwen2.5-0.5b-instruct-q4_k_m.gguf');
 */
export async function deleteCachedModel(url: string): Promise<boolean> {
  const dir = await modelsDirectory();
  const key = await keyOf(absolute(url));
  const had = (await readRecord(dir, key)) !== undefined || (await partsOf(dir, key)).length > 0;
  await removeModel(dir, key);
  return had;
}

function absolute(url: string): string {
  if (typeof url !== 'string' || url === '')
    throw new TypeError(`Expected a model URL (a string), got ${describeValue(url)}`);
  return new URL(url, globalThis.location?.href).href;
}

async function modelsDirectory(): Promise<FileSystemDirectoryHandle> {
  const root = await navigator.storage.getDirectory();
  return root.getDirectoryHandle(DIRECTORY, { create: true });
}

async function keyOf(url: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(url));
  return Array.from(new Uint8Array(digest).slice(0, 16), (b) => b.toString(16).padStart(2, '0')).join('');
}

const partName = (key: string, index: number) => `${key}.part${String(index).padStart(4, '0')}`;

/** The model's parts in order, as Files (lazy: nothing is read). */
async function partsOf(dir: FileSystemDirectoryHandle, key: string): Promise<File[]> {
  const files: File[] = [];
  for (let index = 0; ; index++) {
    try {
      files.push(await (await dir.getFileHandle(partName(key, index))).getFile());
    } catch {
      return files;
    }
  }
}

/** Removes what is kept of a model; best effort (a full disk can refuse even a listing). */
async function removeModel(dir: FileSystemDirectoryHandle, key: string): Promise<void> {
  try {
    const names: string[] = [];
    for await (const name of namesIn(dir)) if (name.startsWith(`${key}.`)) names.push(name);
    for (const name of names) await dir.removeEntry(name).catch(() => {});
  } catch {
    for (let index = 0; ; index++) {
      const gone = await dir.removeEntry(partName(key, index)).then(
        () => true,
        () => false,
      );
      if (!gone) break;
    }
    await dir.removeEntry(`${key}.json`).catch(() => {});
  }
}

async function readRecord(dir: FileSystemDirectoryHandle, key: string): Promise<Kept | undefined> {
  try {
    const text = await (await (await dir.getFileHandle(`${key}.json`)).getFile()).text();
    const value = JSON.parse(text) as Kept;
    return typeof value.url === 'string' && typeof value.total === 'number' ? value : undefined;
  } catch {
    return undefined;
  }
}

async function writeRecord(dir: FileSystemDirectoryHandle, key: string, record: Kept): Promise<void> {
  const writer = await (await dir.getFileHandle(`${key}.json`, { create: true })).createWritable();
  await writer.write(JSON.stringify(record));
  await writer.close();
}

/** The names in a directory (TypeScript's DOM types do not yet list its iterator). */
function namesIn(dir: FileSystemDirectoryHandle): AsyncIterable<string> {
  return (dir as unknown as { keys(): AsyncIterable<string> }).keys();
}

/** `Content-Range: bytes 100-199/200` → 200. */
function totalOfRange(response: Response): number {
  const match = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '');
  return match ? Number(match[1]) : 0;
}

/** Refuses before writing when the browser says the rest will not fit. */
async function checkRoom(needed: number, source: string, response: Response): Promise<void> {
  const { quota, usage } = await navigator.storage.estimate();
  if (quota === undefined || usage === undefined || quota - usage >= needed) return;
  await response.body?.cancel().catch(() => {});
  throw new LocalModelError({
    reason: 'storage-full',
    source,
    detail: `needs ${needed} bytes of storage and this browser allows ${Math.max(0, quota - usage)} more`,
  });
}

/**
 * A write the browser's storage refused. Past its quota Chromium says QuotaExceededError; when the
 * disk itself fills, a writer's swap file can vanish and the write fails with NotFoundError
 * (seen on the quota project's 40 MB disk, two runs in five): either way the file does not fit.
 */
class StorageRefused extends Error {
  readonly said: string;
  constructor(cause: unknown) {
    super('storage refused a write', { cause });
    this.said = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  }
}

async function stored<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    throw error instanceof DOMException ? new StorageRefused(error) : error;
  }
}

function isQuotaError(error: unknown): boolean {
  return error instanceof DOMException && error.name === 'QuotaExceededError';
}

function describeBytes(bytes: number[]): string {
  const text = String.fromCharCode(...bytes);
  return /^[\x20-\x7e]*$/.test(text) ? JSON.stringify(text) : bytes.map((b) => b.toString(16)).join(' ');
}
