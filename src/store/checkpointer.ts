import { type IDBPDatabase, openDB } from 'idb';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error';
import { CheckpointError } from '../errors/checkpoint-error';
import { describeValue } from '../errors/moat-error';
import { checkCount } from '../errors/option-checks';
import { findNonJSON, isPlainObject, type JSONValue } from '../json/json-value';
import { messageFromJSON, messageToJSON } from '../messages/message-json';
import type { Message } from '../messages/types';
import { WorkSlice } from '../stream/work-slice';
import {
  type AttachmentLimits,
  DEFAULT_ATTACHMENT_LIMITS,
  holdsMedia,
  newBlobs,
  putBackMedia,
  type StoredBlob,
  takeOutMedia,
} from './checkpoint-blobs';
import { byRecency, type ThreadSummary } from './thread-summary';
import { toStoreError } from './transaction';

export type { ThreadSummary } from './thread-summary';

/** One saved step of a conversation thread. */
export interface Checkpoint {
  id: string;
  threadId: string;
  /** ms since the epoch. */
  createdAt: number;
  messages: Message[];
  state: Record<string, JSONValue>;
  /** The checkpoint this one follows. */
  parentId?: string;
  /** What the writer keeps beside the thread (the agent: its step count, calls awaiting approval). */
  metadata?: Record<string, JSONValue>;
}

export interface ListCheckpointsOptions {
  /** Default 10. */
  limit?: number;
  /** Only checkpoints created before this one (by id). */
  before?: string;
}

/**
 * Saves a thread's checkpoints so a reload resumes the conversation where it stood (the agent
 * writes one after every step).
 */
export interface Checkpointer {
  /**
   * Write a new checkpoint. One the thread already has (by id) is not overwritten: the promise
   * rejects with `CheckpointConflictError` (two writers saved the same step). A long thread's
   * messages are read in slices, the page running between them: change none of them until the
   * promise settles (the list itself may change).
   */
  put(threadId: string, checkpoint: Checkpoint): Promise<void>;
  /** The newest checkpoint of the thread. */
  get(threadId: string): Promise<Checkpoint | undefined>;
  /** Newest first. */
  list(threadId: string, options?: ListCheckpointsOptions): Promise<Checkpoint[]>;
  /** Every thread with a checkpoint, the most recently written first (a list of conversations). */
  threads(): Promise<ThreadSummary[]>;
  /** Every checkpoint of the thread. */
  delete(threadId: string): Promise<void>;
  close(): void;
}

interface StoredCheckpoint {
  threadId: string;
  id: string;
  createdAt: number;
  messages: JSONValue[];
  state: Record<string, JSONValue>;
  parentId?: string;
  metadata?: Record<string, JSONValue>;
}

function checkId(value: unknown, what: string): string {
  if (typeof value !== 'string' || value === '')
    throw new TypeError(`Expected ${what} to be a non-empty string, got ${describeValue(value)}`);
  return value;
}

/**
 * The checkpoint as it is stored: checked, and copied as JSON data. The messages are copied in
 * slices of work with a yield to the page between them: a thread of 20,001 messages (a turn of
 * 10,000 calls) took 100-600 ms to copy, one task at each save.
 */
async function toStored(threadId: string, checkpoint: Checkpoint): Promise<StoredCheckpoint> {
  checkId(threadId, 'the thread id');
  if (!isPlainObject(checkpoint)) throw new TypeError(`Expected a checkpoint object, got ${describeValue(checkpoint)}`);
  checkId(checkpoint.id, 'the checkpoint id');
  if (checkpoint.threadId !== threadId) {
    throw new TypeError(
      `The checkpoint belongs to thread ${describeValue(checkpoint.threadId)}, not ${describeValue(threadId)}`,
    );
  }
  if (typeof checkpoint.createdAt !== 'number' || !Number.isFinite(checkpoint.createdAt)) {
    throw new TypeError(`Expected createdAt to be a time in ms, got ${describeValue(checkpoint.createdAt)}`);
  }
  if (!Array.isArray(checkpoint.messages))
    throw new TypeError(`Expected messages to be an array, got ${describeValue(checkpoint.messages)}`);
  checkJSONObject(checkpoint.state, 'state');
  if (checkpoint.metadata !== undefined) checkJSONObject(checkpoint.metadata, 'metadata');
  const stored: StoredCheckpoint = {
    threadId,
    id: checkpoint.id,
    createdAt: checkpoint.createdAt,
    messages: [],
    state: JSON.parse(JSON.stringify(checkpoint.state)),
  };
  if (checkpoint.parentId !== undefined) stored.parentId = checkId(checkpoint.parentId, 'the parent id');
  if (checkpoint.metadata !== undefined) stored.metadata = JSON.parse(JSON.stringify(checkpoint.metadata));
  const messages = [...checkpoint.messages];
  const slice = new WorkSlice();
  for (const message of messages) {
    if (slice.spent) await slice.yield();
    stored.messages.push(messageToJSON(message));
  }
  return stored;
}

function checkJSONObject(value: unknown, what: string): void {
  const problem = findNonJSON(value);
  if (!isPlainObject(value) || problem) {
    throw new TypeError(
      `Expected ${what} to be a JSON object${problem ? `: ${what}.${problem.path.join('.')} is ${problem.reason}` : ''}`,
    );
  }
}

function fromStored(stored: StoredCheckpoint): Checkpoint {
  try {
    const checkpoint: Checkpoint = {
      id: stored.id,
      threadId: stored.threadId,
      createdAt: stored.createdAt,
      messages: stored.messages.map(messageFromJSON),
      state: stored.state,
    };
    if (stored.parentId !== undefined) checkpoint.parentId = stored.parentId;
    if (stored.metadata !== undefined) checkpoint.metadata = stored.metadata;
    return checkpoint;
  } catch (cause) {
    throw new CheckpointError({
      threadId: stored?.threadId,
      reason: cause instanceof Error ? cause.message : String(cause),
      cause,
    });
  }
}

function newestFirst(list: StoredCheckpoint[]): StoredCheckpoint[] {
  return list.sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

function checkListOptions(options: unknown): ListCheckpointsOptions {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`Expected list options to be an object, got ${describeValue(options)}`);
  const { limit, before } = options as ListCheckpointsOptions;
  if (limit !== undefined) checkCount('limit', limit);
  if (before !== undefined && typeof before !== 'string')
    throw new TypeError(`Expected \`before\` to be a checkpoint id, got ${describeValue(before)}`);
  return options as ListCheckpointsOptions;
}

/** The stored checkpoints `options` asks for, newest first. */
function pick(all: StoredCheckpoint[], options: ListCheckpointsOptions): StoredCheckpoint[] {
  let list = newestFirst(all);
  if (options.before !== undefined) {
    const at = list.findIndex((c) => c.id === options.before);
    list = at < 0 ? [] : list.slice(at + 1);
  }
  return list.slice(0, Math.max(0, options.limit ?? 10));
}

function listFrom(all: StoredCheckpoint[], options: ListCheckpointsOptions): Checkpoint[] {
  return pick(all, options).map(fromStored);
}

function attachmentLimits(options: IndexedDBCheckpointerOptions): AttachmentLimits {
  if (typeof options !== 'object' || options === null)
    throw new TypeError(`Expected checkpointer options to be an object, got ${describeValue(options)}`);
  const limits = { ...DEFAULT_ATTACHMENT_LIMITS };
  for (const key of ['maxAttachmentBytes', 'maxThreadBytes'] as const)
    if (options[key] !== undefined) limits[key] = checkCount(key, options[key]);
  return limits;
}

/**
 * Checkpoints in memory (for tests and Node).
 *
 * @example const checkpointer = createMemoryCheckpointer();
 */
export function createMemoryCheckpointer(): Checkpointer {
  const threads = new Map<string, Map<string, StoredCheckpoint>>();
  return {
    async put(threadId, checkpoint) {
      // Its own copy already: toStored made it from JSON text.
      const stored = await toStored(threadId, checkpoint);
      const thread = threads.get(threadId) ?? new Map<string, StoredCheckpoint>();
      if (thread.has(stored.id)) throw new CheckpointConflictError({ threadId, checkpointId: stored.id });
      threads.set(threadId, thread);
      thread.set(stored.id, stored);
    },
    // Only what is given out is copied (not every checkpoint of the thread, to pick one).
    async get(threadId) {
      return listFrom(
        structuredClone(pick([...(threads.get(checkId(threadId, 'the thread id'))?.values() ?? [])], { limit: 1 })),
        {
          limit: 1,
        },
      )[0];
    },
    async list(threadId, options = {}) {
      checkListOptions(options);
      const all = [...(threads.get(checkId(threadId, 'the thread id'))?.values() ?? [])];
      return listFrom(structuredClone(pick(all, options)), { limit: Number.POSITIVE_INFINITY });
    },
    async threads() {
      return byRecency(
        [...threads].map(([threadId, thread]) => ({
          threadId,
          updatedAt: Math.max(...[...thread.values()].map((c) => c.createdAt)),
        })),
      );
    },
    async delete(threadId) {
      threads.delete(checkId(threadId, 'the thread id'));
    },
    close() {},
  };
}

/**
 * 1: checkpoints by [threadId, id], indexed by thread. 2: also indexed by time (for `threads()`).
 * 3: the threads' images and files, as Blobs by [threadId, sha-256]. 4: indexed by [threadId,
 * createdAt], so that a thread's newest checkpoint is read alone (it was found by reading all of
 * them: a thread of 400 steps read 400 whole threads to resume).
 */
const CHECKPOINT_SCHEMA_VERSION = 4;

export interface IndexedDBCheckpointerOptions extends Partial<AttachmentLimits> {}

/**
 * Checkpoints in IndexedDB: a reload (or another tab) finds the thread where it stood.
 *
 * @example
 * const checkpointer = openIndexedDBCheckpointer('my-app-threads');
 * const last = await checkpointer.get('thread-1');
 */
export function openIndexedDBCheckpointer(name: string, options: IndexedDBCheckpointerOptions = {}): Checkpointer {
  checkId(name, 'the database name');
  const limits = attachmentLimits(options);
  let db: Promise<IDBPDatabase<unknown>> | undefined;
  const open = () => {
    db ??= openDB(name, CHECKPOINT_SCHEMA_VERSION, {
      upgrade(database, oldVersion, _newVersion, tx) {
        if (oldVersion < 1) {
          const store = database.createObjectStore('checkpoints', { keyPath: ['threadId', 'id'] });
          store.createIndex('thread', 'threadId');
        }
        if (oldVersion < 2) tx.objectStore('checkpoints').createIndex('time', 'createdAt');
        if (oldVersion < 3) database.createObjectStore('blobs', { keyPath: ['threadId', 'id'] });
        if (oldVersion < 4) tx.objectStore('checkpoints').createIndex('thread-time', ['threadId', 'createdAt']);
      },
      blocking(_current, _next, event) {
        (event.target as IDBDatabase).close();
        db = undefined;
      },
      terminated() {
        db = undefined;
      },
    });
    db.catch(() => {
      db = undefined;
    });
    return db;
  };
  const ofThread = async (threadId: string) =>
    (await (
      await open()
    ).getAllFromIndex('checkpoints', 'thread', checkId(threadId, 'the thread id'))) as StoredCheckpoint[];
  /** The thread's blobs: all the keys of [threadId, …]. */
  const blobRange = (threadId: string) => IDBKeyRange.bound([threadId, ''], [threadId, '\uffff']);
  /** Checkpoints as the caller gets them: each blob they refer to read back into base64. */
  const inflated = async (list: StoredCheckpoint[]): Promise<Checkpoint[]> => {
    const database = await open();
    return Promise.all(
      list.map(async (stored) => {
        try {
          const messages = await putBackMedia(stored.messages, async (id) => {
            const record = (await database.get('blobs', [stored.threadId, id])) as StoredBlob | undefined;
            return record?.blob;
          });
          return fromStored({ ...stored, messages });
        } catch (cause) {
          if (CheckpointError.isInstance(cause)) throw cause;
          throw new CheckpointError({ threadId: stored.threadId, reason: (cause as Error).message, cause });
        }
      }),
    );
  };
  const guard = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw toStoreError(error);
    }
  };
  return {
    put: (threadId, checkpoint) =>
      guard(async () => {
        const stored = await toStored(threadId, checkpoint);
        // Hashed before the transaction (it would not outlive the wait); what the thread has
        // is read inside it, so a delete or another writer cannot come between.
        const { messages, blobs } = holdsMedia(stored.messages)
          ? await takeOutMedia(threadId, stored.messages, limits)
          : { messages: stored.messages, blobs: [] };
        const database = await open();
        // One transaction: the checkpoint and its new blobs are written together, or neither
        // (a full disk loses nothing that was there). add, not put: a step written once is
        // never overwritten.
        const tx = database.transaction(['checkpoints', 'blobs'], 'readwrite');
        const done = tx.done;
        done.catch(() => {});
        try {
          let fresh: StoredBlob[] = [];
          if (blobs.length > 0) {
            const known = new Map<string, number>();
            for (const record of (await tx.objectStore('blobs').getAll(blobRange(threadId))) as StoredBlob[])
              known.set(record.id, record.size);
            fresh = newBlobs(threadId, blobs, known, limits);
          }
          await Promise.all([
            tx.objectStore('checkpoints').add({ ...stored, messages }),
            ...fresh.map((b) => tx.objectStore('blobs').put(b)),
            done,
          ]);
        } catch (error) {
          try {
            tx.abort();
          } catch {
            // already over
          }
          if ((error as { name?: unknown })?.name === 'ConstraintError')
            throw new CheckpointConflictError({ threadId, checkpointId: stored.id, cause: error });
          throw error;
        }
      }),
    // The newest by time, then by id: the index's last key, and the highest id among equal times.
    get: (threadId) =>
      guard(async () => {
        const id = checkId(threadId, 'the thread id');
        const range = IDBKeyRange.bound([id, Number.NEGATIVE_INFINITY], [id, Number.POSITIVE_INFINITY]);
        const cursor = await (await open())
          .transaction('checkpoints')
          .store.index('thread-time')
          .openCursor(range, 'prev');
        return cursor ? (await inflated([cursor.value as StoredCheckpoint]))[0] : undefined;
      }),
    list: async (threadId, options = {}) => {
      checkListOptions(options);
      return guard(async () => inflated(pick(await ofThread(threadId), options)));
    },
    // Keys only, newest first: the first time a thread's id appears is its newest checkpoint.
    threads: () =>
      guard(async () => {
        const seen = new Map<string, number>();
        let cursor = await (await open()).transaction('checkpoints').store.index('time').openKeyCursor(null, 'prev');
        while (cursor) {
          const [threadId] = cursor.primaryKey as [string, string];
          if (!seen.has(threadId)) seen.set(threadId, cursor.key as number);
          cursor = await cursor.continue();
        }
        return byRecency([...seen].map(([threadId, updatedAt]) => ({ threadId, updatedAt })));
      }),
    delete: (threadId) =>
      guard(async () => {
        const database = await open();
        const tx = database.transaction(['checkpoints', 'blobs'], 'readwrite');
        const checkpoints = tx.objectStore('checkpoints');
        const keys = await checkpoints.index('thread').getAllKeys(checkId(threadId, 'the thread id'));
        await Promise.all([
          ...keys.map((key) => checkpoints.delete(key)),
          tx.objectStore('blobs').delete(blobRange(threadId)),
        ]);
        await tx.done;
      }),
    close() {
      const current = db;
      db = undefined;
      current?.then((d) => d.close()).catch(() => {});
    },
  };
}
