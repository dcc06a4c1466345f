// A real quota exhaustion in Chromium (the `quota` project: the browser's profile is on a 40 MB
// disk, so this origin may keep about 24 MB). A write that does not fit is a StoreQuotaError and
// leaves nothing behind; what was there stays, and the store keeps working.
import { afterEach, describe, expect, inject, it } from 'vitest';
import { StoreQuotaError } from '../errors/store-quota-error';
import { openIndexedDBStore } from './indexeddb-store';

const why = inject('smallDisk');

/** About `bytes` of text that does not compress (the disk would otherwise hold far more). */
function noise(bytes: number): string {
  const raw = new Uint8Array((bytes * 3) / 4);
  for (let o = 0; o < raw.length; o += 65_536) crypto.getRandomValues(raw.subarray(o, o + 65_536));
  let binary = '';
  for (let o = 0; o < raw.length; o += 8192) binary += String.fromCharCode(...raw.subarray(o, o + 8192));
  return btoa(binary);
}

describe.skipIf(why !== '')(`IndexedDB store: a full quota${why ? ` (skipped: ${why})` : ''}`, () => {
  // The quota is the origin's, and the profile outlives the run: give it all back.
  const names: string[] = [];
  afterEach(async () => {
    for (const name of names.splice(0))
      await new Promise((settled) => {
        const request = indexedDB.deleteDatabase(name);
        request.onsuccess = request.onerror = request.onblocked = settled;
      });
  });

  it('fails the write that does not fit with StoreQuotaError, keeps what was there, and goes on', async () => {
    const name = `moat-quota-${crypto.randomUUID()}`;
    names.push(name);
    const store = openIndexedDBStore(name);
    const MB = 1024 * 1024;
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
