import { openDB } from 'idb';
import { describe, expect, it } from 'vitest';
import { AttachmentTooLargeError } from '../errors/attachment-too-large-error';
import { CheckpointConflictError } from '../errors/checkpoint-conflict-error';
import { CheckpointError } from '../errors/checkpoint-error';
import { aiMessage, toolMessage, userMessage } from '../messages/constructors';
import {
  type Checkpoint,
  type Checkpointer,
  createMemoryCheckpointer,
  openIndexedDBCheckpointer,
} from './checkpointer';

const checkpoint = (threadId: string, id: string, createdAt: number, parentId?: string): Checkpoint => ({
  id,
  threadId,
  createdAt,
  messages: [
    userMessage('What is 3 * 12?'),
    aiMessage({ toolCalls: [{ id: 'c1', name: 'multiply', args: { a: 3, b: 12 } }], stopReason: 'tool-calls' }),
    toolMessage({ toolCallId: 'c1', name: 'multiply', content: '36' }),
  ],
  state: { step: createdAt, user: { name: 'Ada' } },
  ...(parentId ? { parentId } : {}),
});

function contract(name: string, make: () => Checkpointer) {
  describe(`${name}: the Checkpointer contract`, () => {
    it('puts, gets the newest, lists newest first with limit and before, deletes a thread', async () => {
      const cp = make();
      await cp.put('t1', checkpoint('t1', 'a', 1));
      await cp.put('t1', checkpoint('t1', 'b', 2, 'a'));
      await cp.put('t1', checkpoint('t1', 'c', 3, 'b'));
      await cp.put('t2', checkpoint('t2', 'a', 9));
      expect(await cp.get('t1')).toEqual(checkpoint('t1', 'c', 3, 'b'));
      expect((await cp.list('t1')).map((c) => c.id)).toEqual(['c', 'b', 'a']);
      expect((await cp.list('t1', { limit: 1 })).map((c) => c.id)).toEqual(['c']);
      expect((await cp.list('t1', { before: 'c' })).map((c) => c.id)).toEqual(['b', 'a']);
      expect((await cp.list('t1', { before: 'unknown' })).map((c) => c.id)).toEqual([]);
      await expect(cp.list('t1', { limit: -1 })).rejects.toThrow(/`limit` to be a non-negative integer, got `-1`/);
      await expect(cp.list('t1', { before: 3 as never })).rejects.toThrow(/`before` to be a checkpoint id/);
      await expect(cp.list('t1', 'newest' as never)).rejects.toThrow(/list options to be an object/);
      await cp.delete('t1');
      expect(await cp.get('t1')).toBeUndefined();
      expect((await cp.get('t2'))?.id).toBe('a');
      cp.close();
    });

    it('gets the newest by time, then by id, among many (read alone, not with all the others)', async () => {
      const cp = make();
      for (let i = 0; i < 30; i++) await cp.put('many', checkpoint('many', `s${String(i).padStart(2, '0')}`, 100 - i));
      await cp.put('many', checkpoint('many', 'z-late', 200));
      await cp.put('many', checkpoint('many', 'a-tie', 200));
      await cp.put('other', checkpoint('other', 'zz', 999));
      expect((await cp.get('many'))?.id).toBe('z-late');
      expect((await cp.list('many', { limit: 3 })).map((c) => c.id)).toEqual(['z-late', 'a-tie', 's00']);
      cp.close();
    });

    it('never overwrites a checkpoint: a second put of its id is CheckpointConflictError', async () => {
      const cp = make();
      await cp.put('t1', checkpoint('t1', 'a', 1));
      const again = cp.put('t1', { ...checkpoint('t1', 'a', 2), state: { overwritten: true } });
      await expect(again).rejects.toBeInstanceOf(CheckpointConflictError);
      await expect(again).rejects.toMatchObject({ threadId: 't1', checkpointId: 'a' });
      expect(await cp.get('t1')).toEqual(checkpoint('t1', 'a', 1));
      // The same id in another thread is another checkpoint.
      await cp.put('t2', checkpoint('t2', 'a', 3));
      cp.close();
    });

    it('lists its threads, the most recently written first', async () => {
      const cp = make();
      expect(await cp.threads()).toEqual([]);
      await cp.put('old', checkpoint('old', 'a', 5));
      await cp.put('new', checkpoint('new', 'a', 7));
      await cp.put('old', checkpoint('old', 'b', 9, 'a'));
      await cp.put('tie', checkpoint('tie', 'a', 7));
      expect(await cp.threads()).toEqual([
        { threadId: 'old', updatedAt: 9 },
        { threadId: 'new', updatedAt: 7 },
        { threadId: 'tie', updatedAt: 7 },
      ]);
      await cp.delete('old');
      expect((await cp.threads()).map((t) => t.threadId)).toEqual(['new', 'tie']);
      cp.close();
    });

    it('refuses a checkpoint of another thread or with non-JSON state', async () => {
      const cp = make();
      await expect(cp.put('t1', checkpoint('t2', 'x', 1))).rejects.toThrow(/belongs to thread `'t2'`/);
      await expect(cp.put('t1', { ...checkpoint('t1', 'x', 1), state: { when: new Date() } as never })).rejects.toThrow(
        /state\.when is a Date/,
      );
      expect(await cp.get('t1')).toBeUndefined();
      cp.close();
    });
  });
}

contract('createMemoryCheckpointer', () => createMemoryCheckpointer());
contract('openIndexedDBCheckpointer', () => openIndexedDBCheckpointer(`moat-cp-${crypto.randomUUID()}`));

describe('openIndexedDBCheckpointer', () => {
  it('opens a database written by schema 1 and lists its threads', async () => {
    const name = `moat-cp-${crypto.randomUUID()}`;
    const v1 = await openDB(name, 1, {
      upgrade(database) {
        database.createObjectStore('checkpoints', { keyPath: ['threadId', 'id'] }).createIndex('thread', 'threadId');
      },
    });
    const { messages: _m, ...rest } = checkpoint('t', 'a', 4);
    await v1.put('checkpoints', { ...rest, messages: [{ role: 'user', content: 'hi' }] });
    v1.close();
    const cp = openIndexedDBCheckpointer(name);
    expect(await cp.threads()).toEqual([{ threadId: 't', updatedAt: 4 }]);
    expect((await cp.get('t'))?.messages).toEqual([userMessage('hi')]);
    cp.close();
  });

  it('reports a malformed stored checkpoint as CheckpointError', async () => {
    const name = `moat-cp-${crypto.randomUUID()}`;
    const cp = openIndexedDBCheckpointer(name);
    await cp.put('t', checkpoint('t', 'ok', 1));
    cp.close();
    const db = await openDB(name);
    await db.put('checkpoints', {
      threadId: 't',
      id: 'broken',
      createdAt: 2,
      messages: [{ role: 'robot' }],
      state: {},
    });
    db.close();
    const again = openIndexedDBCheckpointer(name);
    await expect(again.get('t')).rejects.toBeInstanceOf(CheckpointError);
    await expect(again.get('t')).rejects.toThrow(/Checkpoint of thread 't' is unusable: Invalid message: role/);
    again.close();
  });
});

describe('openIndexedDBCheckpointer: images and files', () => {
  /** A PNG of `size` bytes whose content is `seed` (a different seed, a different image). */
  function png(size: number, seed: number): string {
    const bytes = new Uint8Array(size).fill(seed);
    bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    let binary = '';
    for (let o = 0; o < bytes.length; o += 8192) binary += String.fromCharCode(...bytes.subarray(o, o + 8192));
    return btoa(binary);
  }
  const withImage = (id: string, createdAt: number, data: string, parentId?: string): Checkpoint => {
    const base = checkpoint('t', id, createdAt, parentId);
    const asked = userMessage([
      { type: 'text', text: 'What is this?' },
      { type: 'image', data, mediaType: 'image/png' },
    ]);
    return { ...base, messages: [asked, ...base.messages.slice(1)] };
  };

  it('keeps each image once, as a Blob beside the thread, out of the checkpoints; gives it back; deletes it with the thread', async () => {
    const name = `moat-cp-${crypto.randomUUID()}`;
    const cp = openIndexedDBCheckpointer(name);
    const image = png(300_000, 7);
    await cp.put('t', withImage('a', 1, image));
    await cp.put('t', withImage('b', 2, image, 'a')); // the same image, a later step
    // Another thread with the same image and one of its own: deleting 't' leaves both.
    await cp.put('other', {
      ...checkpoint('other', 'x', 3),
      messages: [
        userMessage([
          { type: 'image', data: image, mediaType: 'image/png' },
          { type: 'image', data: png(1000, 9), mediaType: 'image/png' },
        ]),
      ],
    });
    const newest = await cp.get('t');
    expect(newest?.id).toBe('b');
    expect(newest?.messages[0]).toEqual(withImage('b', 2, image).messages[0]);
    expect((await cp.list('t')).map((c) => c.messages[0])).toEqual([newest?.messages[0], newest?.messages[0]]);

    // As stored: references in the checkpoints, one Blob of 300,000 bytes for the thread.
    const db = await openDB(name);
    const raw = JSON.stringify(await db.getAll('checkpoints'));
    expect(raw).not.toContain(image.slice(0, 100));
    expect(raw.match(/moat-blob:[0-9a-f]{64}/g)).toHaveLength(4); // t's two steps, other's two images
    const blobs = (await db.getAll('blobs')) as { threadId: string; blob: Blob; size: number }[];
    expect(blobs.map((b) => [b.threadId, b.size, b.blob.type]).sort()).toEqual([
      ['other', 1000, 'image/png'],
      ['other', 300_000, 'image/png'],
      ['t', 300_000, 'image/png'],
    ]);

    // Opened again (a reload): the same.
    cp.close();
    const again = openIndexedDBCheckpointer(name);
    expect((await again.get('t'))?.messages[0]).toEqual(newest?.messages[0]);
    await again.delete('t');
    expect(await again.get('t')).toBeUndefined();
    expect(((await db.getAll('blobs')) as { threadId: string }[]).map((b) => b.threadId)).toEqual(['other', 'other']);
    const kept = (await again.get('other'))?.messages[0]?.content;
    expect((kept as { data: string }[] | undefined)?.[0]?.data).toBe(image);
    again.close();
    db.close();
  });

  it('writes a checkpoint and its new images in one transaction: a step that fails leaves no image behind', async () => {
    // The same path as a full disk (StoreQuotaError, shown with the store in the quota project):
    // here the checkpoint's add fails, a conflict, after its image was put in the same transaction.
    const name = `moat-cp-${crypto.randomUUID()}`;
    const cp = openIndexedDBCheckpointer(name);
    await cp.put('t', checkpoint('t', 'a', 1));
    const again = cp.put('t', withImage('a', 2, png(10_000, 4)));
    await expect(again).rejects.toBeInstanceOf(CheckpointConflictError);
    const db = await openDB(name);
    expect(await db.count('blobs')).toBe(0);
    db.close();
    expect((await cp.get('t'))?.messages).toEqual(checkpoint('t', 'a', 1).messages);
    cp.close();
  });

  it('refuses an image or a thread past its limit with AttachmentTooLargeError, writing nothing', async () => {
    const name = `moat-cp-${crypto.randomUUID()}`;
    const cp = openIndexedDBCheckpointer(name, { maxAttachmentBytes: 100_000, maxThreadBytes: 150_000 });
    const big = cp.put('t', withImage('a', 1, png(120_000, 1)));
    await expect(big).rejects.toBeInstanceOf(AttachmentTooLargeError);
    await expect(big).rejects.toMatchObject({ of: 'attachment', bytes: 120_000, limit: 100_000 });
    await cp.put('t', withImage('b', 2, png(90_000, 2)));
    const over = cp.put('t', withImage('c', 3, png(90_000, 3), 'b'));
    await expect(over).rejects.toMatchObject({ name: 'AttachmentTooLargeError', of: 'thread', bytes: 180_000 });
    expect((await cp.list('t')).map((c) => c.id)).toEqual(['b']);
    const db = await openDB(name);
    expect((await db.getAll('blobs')).length).toBe(1);
    db.close();
    expect(() => openIndexedDBCheckpointer(name, { maxThreadBytes: -1 })).toThrow('Expected `maxThreadBytes`');
    cp.close();
  });
});
