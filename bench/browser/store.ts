/** The IndexedDB store against raw IndexedDB, measured in the same run. */
import { openIndexedDBStore } from '../../src/store/indexeddb-store';
import type { Store } from '../../src/store/types';
import { type BenchCase, time } from '../case';

const record = (i: number) => ({ id: i, text: `item ${i}`, tags: ['a', 'b'], at: i * 1000 });

function withStore(run: (store: Store, round: number) => Promise<unknown>, prepare?: (store: Store) => Promise<void>) {
  return async () => {
    const name = `moat-bench-store-${crypto.randomUUID()}`;
    const store = openIndexedDBStore(name);
    await prepare?.(store);
    let round = 0;
    return {
      sample: () => time(() => run(store, round++)),
      teardown: () => {
        store.close();
        indexedDB.deleteDatabase(name);
      },
    };
  };
}

async function fill(store: Store, namespace: (i: number) => string[], count: number): Promise<void> {
  for (let start = 0; start < count; start += 1000) {
    await store.batch(
      Array.from({ length: Math.min(1000, count - start) }, (_, j) => ({
        op: 'put' as const,
        namespace: namespace(start + j),
        key: `k${start + j}`,
        value: record(start + j),
      })),
    );
  }
}

export const storeCases: BenchCase[] = [
  {
    name: 'store/batch-put-1000',
    unit: 'ms',
    anchor: 'anchor/idb-put-1000-one-tx',
    target: { max: 1.2 },
    repeat: 25, // IndexedDB timings spread widely on this machine: more pairs, a steadier median
    note: 'store.batch of 1,000 puts: one transaction (reads what each put replaces, for createdAt)',
    setup: withStore((store, round) =>
      store.batch(
        Array.from({ length: 1000 }, (_, i) => ({
          op: 'put' as const,
          namespace: ['bench', `r${round}`],
          key: `k${i}`,
          value: record(i),
        })),
      ),
    ),
  },
  {
    name: 'store/put-1000',
    unit: 'ms',
    anchor: 'anchor/idb-put-1000-separate',
    target: { max: 1.2 },
    repeat: 7,
    note: '1,000 awaited store.put calls, each its own transaction',
    setup: withStore(async (store, round) => {
      for (let i = 0; i < 1000; i++) await store.put(['bench', `r${round}`], `k${i}`, record(i));
    }),
  },
  {
    name: 'store/get-1000',
    unit: 'ms',
    anchor: 'anchor/idb-put-1000-separate',
    repeat: 7,
    note: '1,000 awaited store.get calls, each its own transaction',
    setup: withStore(
      async (store) => {
        for (let i = 0; i < 1000; i++) await store.get(['bench'], `k${i}`);
      },
      (store) => fill(store, () => ['bench'], 1000),
    ),
  },
  {
    name: 'store/search-prefix-100',
    unit: 'ms',
    note: 'search a namespace of 100 items (limit 100), nothing else stored',
    setup: withStore(
      (store) => store.search(['target'], { limit: 100 }),
      (store) => fill(store, () => ['target'], 100),
    ),
  },
  {
    name: 'store/search-prefix-10000',
    unit: 'ms',
    anchor: 'store/search-prefix-100',
    note: 'the same search with 10,000 more items in unrelated namespaces: a key range, not a scan (ratio ≈ 1 is flat)',
    setup: withStore(
      (store) => store.search(['target'], { limit: 100 }),
      async (store) => {
        await fill(store, () => ['target'], 100);
        await fill(store, (i) => ['unrelated', `n${i % 100}`], 10_000);
      },
    ),
  },
];
