// A real quota exhaustion for the checkpointer's images (the `quota` project: the browser's
// profile on a 40 MB disk, about 24 MB for this origin). A checkpoint whose image does not fit is
// a StoreQuotaError that writes neither the checkpoint nor the image; what was saved stays, and
// once a thread is deleted (its images with it) checkpoints go in again.
import { openDB } from 'idb';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { StoreQuotaError } from '../errors/store-quota-error';
import { userMessage } from '../messages/constructors';
import { type Checkpoint, openIndexedDBCheckpointer } from './checkpointer';

const why = inject('smallDisk');
const MB = 1024 * 1024;

/** A PNG-headed image of random bytes (the disk would hold far more of anything that compresses), as base64. */
function noisyPng(bytes: number): string {
  const raw = new Uint8Array(bytes);
  for (let o = 0; o < raw.length; o += 65_536) crypto.getRandomValues(raw.subarray(o, o + 65_536));
  raw.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  let binary = '';
  for (let o = 0; o < raw.length; o += 8192) binary += String.fromCharCode(...raw.subarray(o, o + 8192));
  return btoa(binary);
}

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

describe.skipIf(why !== '')(`IndexedDB checkpointer: a full quota${why ? ` (skipped: ${why})` : ''}`, () => {
  const names: string[] = [];
  afterEach(async () => {
    for (const name of names.splice(0))
      await new Promise((settled) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = request.onerror = request.onblocked = settled;
      });
    // Another quota test may come next: wait until the images' space is given back (Chromium
    // takes some seconds).
    await expect
      .poll(async () => (await navigator.storage.estimate()).usage ?? 0, { timeout: 20_000 })
      .toBeLessThan(2 * MB);
  });

  it('fails the checkpoint whose image does not fit with StoreQuotaError, writing neither; what was saved stays; deleting a thread makes room', async () => {
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

    // Deleting a thread deletes its images: room again.
    await cp.delete('even');
    await cp.put('fresh', withImage('fresh', 'f1', saved + 1, undefined, 10_000));
    expect((await cp.get('fresh'))?.id).toBe('f1');
    cp.close();
  });
});
