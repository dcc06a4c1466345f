import { openDB } from 'idb';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { storeContract } from '../../test/store-contract';
import storeToolsUrl from '../../test/workers/store.worker.ts?worker&url';
import { StorePermissionError } from '../errors/store-permission-error';
import { StoreQuotaError } from '../errors/store-quota-error';
import { StoreUnavailableError } from '../errors/store-unavailable-error';
import { resultValue } from '../pool/pool-options';
import { createWorkerPool } from '../pool/worker-pool';
import { openIndexedDBStore, SWEEP_INTERVAL_MS } from './indexeddb-store';
import { STORE_MIGRATIONS, STORE_SCHEMA_VERSION } from './layout';
import { toStoreError } from './transaction';
import type { Store } from './types';

const opened: { name: string; store: Store }[] = [];
const fresh = (now?: () => number) => {
  const name = `moat-test-${crypto.randomUUID()}`;
  const store = openIndexedDBStore(name, now ? { now } : {});
  opened.push({ name, store });
  return { name, store };
};
afterAll(async () => {
  for (const { name, store } of opened) {
    store.close();
    indexedDB.deleteDatabase(name);
  }
});

storeContract('openIndexedDBStore', (clock) => fresh(clock.now).store);

/** The keys IndexedDB really holds (expired items included until swept). */
async function rawKeys(name: string, storeName = 'entries'): Promise<unknown[]> {
  const db = await openDB(name);
  try {
    return await db.getAllKeys(storeName);
  } finally {
    db.close();
  }
}

/** The sweeps a store starts (in the background, a task after the write or the open that asks). */
const watchSweeps = (store: Store) => vi.spyOn(store as unknown as { sweep(): Promise<number> }, 'sweep');

describe('IndexedDB store: sweeping expired items', () => {
  it('deletes what expired when a write comes after the sweep interval, and on open', async () => {
    let now = 1_000_000;
    const { name, store } = fresh(() => now);
    const sweeps = watchSweeps(store);
    await store.put(['t'], 'short', 1, { ttlMs: 1000 });
    await store.put(['t'], 'keep', 2, { ttlMs: 1000 });
    await store.put(['t'], 'keep', 2); // permanent again: its old expiry must not delete it
    now += 2000; // expired, but the last sweep (on open) was moments ago
    await store.put(['t'], 'other', 3);

    now += SWEEP_INTERVAL_MS;
    await store.put(['t'], 'later', 4);
    const swept = [
      [['t'], 'keep'],
      [['t'], 'later'],
      [['t'], 'other'],
    ];
    await expect.poll(() => rawKeys(name)).toEqual(swept);
    expect(await rawKeys(name, 'expiries')).toEqual([]);
    // Two sweeps, on open and after the interval: none for 'other', written within it. Its sweep
    // would have been asked for first, so it would have started before the one just seen.
    expect(sweeps).toHaveBeenCalledTimes(2);

    await store.put(['t'], 'brief', 5, { ttlMs: 10 });
    store.close();
    now += 100;
    const reopened = openIndexedDBStore(name, { now: () => now });
    opened.push({ name, store: reopened });
    expect(await reopened.get(['t'], 'brief')).toBeUndefined();
    // Swept on open.
    await expect.poll(() => rawKeys(name)).toEqual(swept);
  });
});

describe('IndexedDB store: robustness', () => {
  it('upgrades a version-1 database and keeps its data', async () => {
    const name = `moat-test-${crypto.randomUUID()}`;
    const v1 = await openDB(name, 1, {
      upgrade(db, oldVersion, _newVersion, tx) {
        for (let v = oldVersion; v < 1; v++) STORE_MIGRATIONS[v]?.(db, tx as never);
      },
    });
    await v1.put('items', { ns: ['memory'], key: 'old', value: { from: 'v1' }, createdAt: 1, updatedAt: 2 });
    expect([...v1.objectStoreNames]).toEqual(['items']);
    expect([...v1.transaction('items').store.indexNames]).toEqual([]);
    v1.close();

    const store = openIndexedDBStore(name);
    opened.push({ name, store });
    expect(await store.get(['memory'], 'old')).toEqual({
      namespace: ['memory'],
      key: 'old',
      value: { from: 'v1' },
      createdAt: 1,
      updatedAt: 2,
    });
    await store.put(['memory'], 'new', 1, { ttlMs: 60_000 });
    store.close();
    const upgraded = await openDB(name);
    expect(upgraded.version).toBe(STORE_SCHEMA_VERSION);
    expect([...upgraded.objectStoreNames]).toEqual(['entries', 'expiries']);
    expect([...upgraded.transaction('entries').store.indexNames]).toEqual([]);
    expect(await upgraded.getAllKeys('expiries')).toHaveLength(1);
    upgraded.close();
  });

  it('upgrades a version-2 database: its TTL items keep expiring and are swept', async () => {
    const name = `moat-test-${crypto.randomUUID()}`;
    const v2 = await openDB(name, 2, {
      upgrade(db, oldVersion, _newVersion, tx) {
        for (let v = oldVersion; v < 2; v++) STORE_MIGRATIONS[v]?.(db, tx as never);
      },
    });
    await v2.put('items', { ns: ['m'], key: 'brief', value: 1, createdAt: 1, updatedAt: 1, expiresAt: 500 });
    await v2.put('items', { ns: ['m'], key: 'kept', value: 2, createdAt: 1, updatedAt: 1 });
    v2.close();

    let now = 100;
    const store = openIndexedDBStore(name, { now: () => now });
    opened.push({ name, store });
    expect((await store.get(['m'], 'brief'))?.value).toBe(1);
    expect(await rawKeys(name, 'expiries')).toEqual([[500, 'm\u0000\u0000brief']]);
    now = 1000;
    expect(await store.get(['m'], 'brief')).toBeUndefined();
    now += SWEEP_INTERVAL_MS;
    await store.put(['m'], 'other', 3);
    await expect
      .poll(() => rawKeys(name))
      .toEqual([
        [['m'], 'kept'],
        [['m'], 'other'],
      ]);
    expect(await rawKeys(name, 'expiries')).toEqual([]);
  });

  it('steps aside when another tab opens a newer version, then reopens and keeps working', async () => {
    const { name, store } = fresh();
    await store.put(['x'], 'k', 1);
    // Another tab with newer code: without the store closing its connection, this would block.
    const newer = await openDB(name, STORE_SCHEMA_VERSION + 1, {
      upgrade(db, _old, _new, tx) {
        tx.objectStore('entries').createIndex('future', 'updatedAt');
        void db;
      },
      blocked() {
        throw new Error('blocked by the old connection');
      },
    });
    newer.close();
    expect((await store.get(['x'], 'k'))?.value).toBe(1);
    await store.put(['x'], 'k2', 2);
    expect((await store.search(['x'])).length).toBe(2);
  });

  it('maps a quota failure to StoreQuotaError', () => {
    const error = toStoreError(new DOMException('The quota has been exceeded.', 'QuotaExceededError'));
    expect(error).toBeInstanceOf(StoreQuotaError);
    expect((error as StoreQuotaError).message).toBe('The storage quota is exceeded: nothing was written');
    const other = new DOMException('x', 'DataError');
    expect(toStoreError(other)).toBe(other);
  });

  it('search by prefix reads a key range: unrelated namespaces do not slow it down much', async () => {
    const { store } = fresh();
    await store.batch(
      Array.from({ length: 50 }, (_, i) => ({ op: 'put' as const, namespace: ['mine'], key: `k${i}`, value: i })),
    );
    await store.batch(
      Array.from({ length: 5000 }, (_, i) => ({
        op: 'put' as const,
        namespace: ['zzz-other', `n${i % 50}`],
        key: `k${i}`,
        value: i,
      })),
    );
    expect(await store.search(['mine'], { limit: 100 })).toHaveLength(50);
    expect(await store.search(['zzz-other', 'n7'], { limit: 1000 })).toHaveLength(100);
  });
});

// A sealed worker (the default: its own process, an opaque origin, no IndexedDB) gets the page's
// store over a port; a plain one opens it itself.
/** What the page grants store.worker.ts's tools (the sealed pool serves a module nothing more). */
const GRANTS = {
  increment: { store: [['counters']] },
  remember: { store: [['memory']] },
  recall: { store: [['memory']] },
  peek: { store: [['memory']] },
};
describe.each([
  [
    'plain tool workers',
    () => new Worker(new URL('../../test/workers/store.worker.ts', import.meta.url), { type: 'module' }),
  ],
  ['sealed tool workers', storeToolsUrl],
] as const)('IndexedDB store: shared with %s', (kind, storeWorker) => {
  it('a value a tool writes in a worker is read on the page, and back', async () => {
    const { name, store } = fresh();
    const pool = createWorkerPool({ worker: storeWorker, size: 1, store: name, grants: GRANTS });
    try {
      expect(resultValue(await pool.call({ id: 'r1', name: 'remember', args: { key: 'tea', value: 'sencha' } }))).toBe(
        'Remembered tea',
      );
      expect((await store.get(['memory'], 'tea'))?.value).toEqual({ value: 'sencha' });
      await store.put(['memory'], 'coffee', { value: 'from the page' });
      expect(resultValue(await pool.call({ id: 'r2', name: 'recall', args: { key: 'coffee' } }))).toBe('from the page');
    } finally {
      await pool.close();
    }
  });

  // A sealed worker's modules all come from the page up front, as blobs, and blob imports leave no
  // resource timing: what this test reads exists for plain workers only.
  it.runIf(kind === 'plain tool workers')(
    'a worker loads the store code when a tool first uses the store, not before',
    async () => {
      const { name } = fresh();
      const pool = createWorkerPool({ worker: storeWorker, size: 1, store: name, grants: GRANTS });
      // A worker's resource timing lists what it fetched after start (dynamic imports), not its
      // initial module graph: store code there was loaded on demand, not with the worker. A sealed
      // worker's modules are blobs its loader made (the page read them all up front): there, the
      // store code's blobs are imported on first use, as entries the worker did not have before.
      const storeCode = (scripts: unknown) =>
        (scripts as string[]).filter((s) =>
          (kind === 'sealed tool workers' ? /^blob:/ : /store-code|indexeddb-store/).test(s),
        );
      try {
        const before = resultValue(await pool.call({ id: 's1', name: 'loaded_scripts', args: {} }));
        expect(storeCode(before)).toEqual([]);
        await pool.call({ id: 's2', name: 'remember', args: { key: 'tea', value: 'sencha' } });
        const after = resultValue(await pool.call({ id: 's3', name: 'loaded_scripts', args: {} }));
        expect(storeCode(after)).not.toEqual([]);
      } finally {
        await pool.close();
      }
    },
  );

  it('a tool limited to a namespace cannot reach another: StorePermissionError', async () => {
    const { name, store } = fresh();
    await store.put(['secrets'], 'api-key', 'sk-do-not-leak');
    const pool = createWorkerPool({ worker: storeWorker, size: 1, store: name, grants: GRANTS });
    try {
      const error = (await pool.call({ id: 'p1', name: 'peek', args: {} }).catch((e) => e)) as StorePermissionError;
      expect(error).toBeInstanceOf(StorePermissionError);
      expect(error.message).toBe(`Tool 'peek' may not touch store namespace ["secrets"]. Allowed: ["memory"]`);
      expect(error.toolCallId).toBe('p1');
    } finally {
      await pool.close();
    }
  });

  it('a tool that uses the store of a pool without one gets StoreUnavailableError, not undefined', async () => {
    const pool = createWorkerPool({ worker: storeWorker, size: 1 });
    try {
      const error = (await pool
        .call({ id: 'u1', name: 'remember', args: { key: 'tea', value: 'sencha' } })
        .catch((e) => e)) as StoreUnavailableError;
      expect(error).toBeInstanceOf(StoreUnavailableError);
      expect(error.message).toBe(
        "Tool 'remember' (call u1) used runtime.store, but it has none: this pool has no store: pass `store: 'a-database-name'` to createWorkerPool",
      );
      expect([error.toolName, error.toolCallId]).toEqual(['remember', 'u1']);
      // The next call of the same worker is served as usual.
      expect(resultValue(await pool.call({ id: 'u2', name: 'loaded_scripts', args: {} }))).toBeInstanceOf(Array);
    } finally {
      await pool.close();
    }
  });

  it('4 workers and the page updating one counter at once lose no update', async () => {
    const { name, store } = fresh();
    const pool = createWorkerPool({ worker: storeWorker, size: 4, store: name, grants: GRANTS });
    try {
      await pool.warm();
      const increment = (v: unknown) => ((v as number | undefined) ?? 0) + 1;
      await Promise.all([
        ...Array.from({ length: 4 }, (_, w) =>
          pool.call({ id: `w${w}`, name: 'increment', args: { key: 'shared', times: 25 } }),
        ),
        ...Array.from({ length: 25 }, () => store.update(['counters'], 'shared', increment)),
      ]);
      expect(pool.stats.workers).toBe(4);
      expect((await store.get(['counters'], 'shared'))?.value).toBe(125);
    } finally {
      await pool.close();
    }
  });
});
