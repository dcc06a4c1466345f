// A real quota exhaustion in Chromium (the `quota` project: the browser's profile is on a 40 MB
// disk, so this origin may keep about 24 MB). A write that does not fit is a StoreQuotaError and
// leaves nothing behind; what was there stays, and the store keeps working. The same for the
// checkpointer: a checkpoint whose image does not fit writes neither the checkpoint nor the
// image; a deleted thread takes its images with it.
import { openDB } from 'idb';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { giveQuotaBack, randomBase64 } from '../../test/quota-helpers';
import { StoreQuotaError } from '../errors/store-quota-error';
import { userMessage } from '../messages/constructors';
import { type Checkpoint, openIndexedDBCheckpointer } from './checkpointer';
import { openIndexedDBStore } from './indexeddb-store';

const why = inject('smallDisk');
const MB = 1024 * 1024;

/** About `bytes` of text that does not compress. */
const noise = (bytes: number) => randomBase64((bytes * 3) / 4);

describe.skipIf(why !== '')(`IndexedDB store: a full quota${why ? ` (skipped: ${why})` : ''}`, () => {
  // The quota is the origin's, and the profile outlives the run: give it all back.
  const names: string[] = [];
  afterEach(() => giveQuotaBack(names));

  it('fails the write that does not fit with StoreQuotaError, keeps what was there, and goes on', async () => {
    const name = `moat-quota-${crypto.randomUUID()}`;
    names.push(name);
    const store = openIndexedDBStore(name);
    let written = 0;
    let failure: unknown;
    for (; written < 100 && failure === undefined; written++) {
      failure = await store.put(['fill'], `k${written}`, noise(MB)).catch((e: unknown) => e);
    }
    expect(failure).toBeInstanceOf(StoreQuotaError);
    expect((failure as StoreQuotaError).message).toBe('The storage quota is exceeded: nothing was written');
    const kept = written - 1;
    expect(kept).toBeGreaterThan(5); // the quota is about 24 MB: some went in first
    expect(await store.get(['fill'], `k${kept}`)).toBeUndefined();

    // A batch that does not fit: all or nothing.
    const batch = await store
      .batch([
        { op: 'put', namespace: ['batch'], key: 'small', value: 'fits alone' },
        ...Array.from({ length: 4 }, (_, i) => ({
          op: 'put' as const,
          namespace: ['batch'],
          key: `big${i}`,
          value: noise(MB),
        })),
      ])
      .catch((e: unknown) => e);
    expect(batch).toBeInstanceOf(StoreQuotaError);
    expect(await store.search(['batch'])).toEqual([]);

    // What was there is intact; room made, writes go through again.
    expect((await store.search(['fill'], { limit: 1000 })).length).toBe(kept);
    for (let i = 0; i < 4; i++) await store.delete(['fill'], `k${i}`);
    await store.put(['after'], 'note', 'written once there was room');
    expect((await store.get(['after'], 'note'))?.value).toBe('written once there was room');
    store.close();
  });
});

/** A PNG-headed image of random bytes, as base64. */
const noisyPng = (bytes: number) => randomBase64(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

const withImage = (threadId: string, id: string, createdAt: number, parentId?: string, bytes = MB): Checkpoint => ({
  id,
  threadId,
  createdAt,
  messages: [
    userMessage([
      { type: 'text', text: `Picture ${id}` },
      { type: 'image', data: noisyPng(bytes), mediaType: 'image/png' },
    ]),
  ],
  state: {},
  ...(parentId ? { parentId } : {}),
});

// Last: the space of deleted images comes back only some seconds later (Chromium drops their files
// lazily), so a test after this one could find the disk still full.
describe.skipIf(why !== '')(`IndexedDB checkpointer's images: a full quota${why ? ` (skipped: ${why})` : ''}`, () => {
  const names: string[] = [];
  afterEach(() => giveQuotaBack(names));

  it('fails the checkpoint whose image does not fit with StoreQuotaError, writing neither; what was saved stays; a deleted thread takes its images', async () => {
    const name = `moat-cp-quota-${crypto.randomUUID()}`;
    names.push(name);
    const cp = openIndexedDBCheckpointer(name, { maxThreadBytes: 1024 * MB });
    let saved = 0;
    let failure: unknown;
    // Two threads, a checkpoint with a new 1 MB image at each step, until the disk says no.
    for (let step = 1; step <= 100 && failure === undefined; step++) {
      const threadId = step % 2 ? 'odd' : 'even';
      const parent = step > 2 ? `s${step - 2}` : undefined;
      failure = await cp.put(threadId, withImage(threadId, `s${step}`, step, parent)).catch((e: unknown) => e);
      if (failure === undefined) saved = step;
    }
    expect(failure).toBeInstanceOf(StoreQuotaError);
    expect(saved).toBeGreaterThan(5); // about 24 MB: some went in first

    // The failed step left no image behind: one blob per saved checkpoint.
    const db = await openDB(name);
    expect(await db.count('blobs')).toBe(saved);
    expect(await db.count('checkpoints')).toBe(saved);
    db.close();
    // Each thread's newest is the last saved step, its image read back whole.
    const newest = await cp.get(saved % 2 ? 'odd' : 'even');
    expect(newest?.id).toBe(`s${saved}`);
    const parts = newest?.messages[0]?.content as { type: string; data?: string }[] | undefined;
    expect(parts?.[1]?.data?.length).toBe(noisyPng(MB).length);

    // Deleting a thread deletes its images (their space comes back some seconds later), and the
    // checkpointer goes on.
    await cp.delete('even');
    const after = await openDB(name);
    expect(await after.count('blobs')).toBe(Math.ceil(saved / 2));
    after.close();
    await cp.put('fresh', withImage('fresh', 'f1', saved + 1, undefined, 10_000));
    expect((await cp.get('fresh'))?.id).toBe('f1');
    cp.close();
  });
});
