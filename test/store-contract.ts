/**
 * The behaviour every Store implementation shares: the memory store (Node) and the IndexedDB
 * store (Chromium) both run this suite.
 */
import { describe, expect, it } from 'vitest';
import { StoreKeyError } from '../src/errors/store-key-error';
import { StoreValueError } from '../src/errors/store-value-error';
import type { Store } from '../src/store/types';

export interface Clock {
  t: number;
  now(): number;
}

export function storeContract(name: string, make: (clock: Clock) => Store | Promise<Store>): void {
  const setup = async () => {
    const clock: Clock = { t: 1_000_000, now: () => clock.t };
    return { clock, store: await make(clock) };
  };

  describe(`${name}: the Store contract`, () => {
    it('puts, gets and deletes, keeping createdAt across updates', async () => {
      const { clock, store } = await setup();
      await store.put(['users', 'u1'], 'name', { first: 'Ada' });
      clock.t += 10;
      await store.put(['users', 'u1'], 'name', { first: 'Ada', last: 'Lovelace' });
      expect(await store.get(['users', 'u1'], 'name')).toEqual({
        namespace: ['users', 'u1'],
        key: 'name',
        value: { first: 'Ada', last: 'Lovelace' },
        createdAt: 1_000_000,
        updatedAt: 1_000_010,
      });
      await store.delete(['users', 'u1'], 'name');
      expect(await store.get(['users', 'u1'], 'name')).toBeUndefined();
      await expect(store.delete(['users', 'u1'], 'never-there')).resolves.toBeUndefined();
    });

    it('keeps namespaces apart, label by label', async () => {
      const { store } = await setup();
      await store.put(['a'], 'k', 1);
      await store.put(['a', 'b'], 'k', 2);
      await store.put(['ab'], 'k', 3);
      expect((await store.get(['a'], 'k'))?.value).toBe(1);
      expect((await store.get(['a', 'b'], 'k'))?.value).toBe(2);
      expect((await store.search(['a'])).map((i) => i.value).sort()).toEqual([1, 2]);
      expect((await store.search(['a', 'b'])).map((i) => i.value)).toEqual([2]);
      expect((await store.search([])).length).toBe(3);
    });

    it('stores any JSON value, and only JSON values, writing nothing on refusal', async () => {
      const { store } = await setup();
      const values = [
        null,
        true,
        0,
        -1.5,
        'text',
        [],
        [1, [2]],
        { nested: { deep: ['x'] } },
        JSON.parse('{"__proto__": {"x": 1}}'),
      ];
      for (const [i, value] of values.entries()) {
        await store.put(['json'], `k${i}`, value);
        expect((await store.get(['json'], `k${i}`))?.value).toEqual(value);
      }
      await expect(store.put(['json'], 'bad', { when: new Date() } as never)).rejects.toBeInstanceOf(StoreValueError);
      await expect(store.put(['json'], 'bad', { f: () => 1 } as never)).rejects.toThrow(
        /Cannot store value\.f: it is a function/,
      );
      await expect(store.put(['json'], 'bad', undefined as never)).rejects.toBeInstanceOf(StoreValueError);
      let deep: unknown = 'bottom';
      for (let i = 0; i < 100_000; i++) deep = [deep];
      await expect(store.put(['json'], 'bad', deep as never)).rejects.toThrow(
        'Cannot store the value: it is nested deeper than 1000 levels',
      );
      expect(await store.get(['json'], 'bad')).toBeUndefined();
    });

    it.each([
      [[], 'k', /at least one label/],
      [[''], 'k', /must not be empty/],
      [['a\u0000b'], 'k', /\\u0000/],
      [['x'.repeat(257)], 'k', /longer than 256/],
      [Array.from({ length: 17 }, () => 'l'), 'k', /at most 16 labels/],
      ['users', 'k', /must be an array/],
      [[1], 'k', /must be a string/],
      [['ok'], '', /must not be empty/],
      [['ok'], 'k'.repeat(1025), /longer than 1024/],
    ] as const)('refuses namespace %j / key with a StoreKeyError', async (ns, key, message) => {
      const { store } = await setup();
      const attempt = store.put(ns as never, key, 1);
      await expect(attempt).rejects.toBeInstanceOf(StoreKeyError);
      await expect(store.put(ns as never, key, 1)).rejects.toThrow(message);
    });

    it('returns copies: changing what you got changes nothing stored', async () => {
      const { store } = await setup();
      await store.put(['c'], 'k', { list: [1] });
      const item = (await store.get(['c'], 'k')) as unknown as { value: { list: number[] } };
      item.value.list.push(2);
      expect((await store.get(['c'], 'k'))?.value).toEqual({ list: [1] });
    });

    it('never returns an expired item, from any method', async () => {
      const { clock, store } = await setup();
      await store.put(['ttl'], 'short', 'x', { ttlMs: 1000 });
      await store.put(['ttl', 'deep'], 'long', 'y', { ttlMs: 5000 });
      clock.t += 999;
      expect((await store.get(['ttl'], 'short'))?.expiresAt).toBe(1_001_000);
      clock.t += 2;
      expect(await store.get(['ttl'], 'short')).toBeUndefined();
      expect((await store.search(['ttl'])).map((i) => i.key)).toEqual(['long']);
      expect(await store.listNamespaces()).toEqual([['ttl', 'deep']]);
      expect(await store.batch([{ op: 'get', namespace: ['ttl'], key: 'short' }])).toEqual([undefined]);
      clock.t += 5000;
      expect(await store.listNamespaces()).toEqual([]);
      await expect(store.put(['ttl'], 'k', 1, { ttlMs: -5 })).rejects.toThrow(/`ttlMs` to be a positive finite number/);
    });

    it('a put without ttl makes an item permanent again; the expired one is not "updated"', async () => {
      const { clock, store } = await setup();
      await store.put(['t'], 'k', 1, { ttlMs: 10 });
      clock.t += 20;
      await store.put(['t'], 'k', 2);
      const item = await store.get(['t'], 'k');
      expect(item).toMatchObject({ value: 2, createdAt: 1_000_020 });
      expect(item?.expiresAt).toBeUndefined();
    });

    it('searches newest first, with filters, text query and pages', async () => {
      const { clock, store } = await setup();
      const docs = [
        {
          key: 'tea',
          value: { kind: 'drink', price: 3, tags: ['hot'], origin: { country: 'Japan' }, note: 'Green Sencha' },
        },
        {
          key: 'coffee',
          value: { kind: 'drink', price: 4, tags: ['hot'], origin: { country: 'Ethiopia' }, note: 'Dark roast' },
        },
        {
          key: 'juice',
          value: { kind: 'drink', price: 5, tags: ['cold'], origin: { country: 'Spain' }, note: 'Fresh orange' },
        },
        { key: 'bread', value: { kind: 'food', price: 2, tags: [], origin: { country: 'France' }, note: 'Sourdough' } },
      ];
      for (const d of docs) {
        clock.t += 1;
        await store.put(['menu'], d.key, d.value);
      }
      await store.put(['other'], 'tea', { kind: 'drink', price: 1 });
      const keys = async (options: Parameters<Store['search']>[1]) =>
        (await store.search(['menu'], options)).map((i) => i.key);
      expect(await keys({})).toEqual(['bread', 'juice', 'coffee', 'tea']);
      expect(await keys({ filter: { kind: 'drink' } })).toEqual(['juice', 'coffee', 'tea']);
      expect(await keys({ filter: { price: { $gt: 3 } } })).toEqual(['juice', 'coffee']);
      expect(await keys({ filter: { price: { $gte: 3, $lt: 5 } } })).toEqual(['coffee', 'tea']);
      expect(await keys({ filter: { price: { $lte: 2 } } })).toEqual(['bread']);
      expect(await keys({ filter: { kind: { $ne: 'drink' } } })).toEqual(['bread']);
      expect(await keys({ filter: { 'origin.country': { $in: ['Japan', 'Spain'] } } })).toEqual(['juice', 'tea']);
      expect(await keys({ filter: { tags: ['hot'] } })).toEqual(['coffee', 'tea']);
      expect(await keys({ filter: { missing: { $gt: 1 } } })).toEqual([]);
      expect(await keys({ query: 'ORANGE' })).toEqual(['juice']);
      expect(await keys({ query: 'dark ethiopia' })).toEqual(['coffee']);
      expect(await keys({ query: 'tea' })).toEqual(['tea']); // the key counts
      expect(await keys({ limit: 2 })).toEqual(['bread', 'juice']);
      expect(await keys({ limit: 2, offset: 2 })).toEqual(['coffee', 'tea']);
      expect(await keys({ offset: 10 })).toEqual([]);
    });

    it('refuses search and list options it cannot apply, rather than answering nothing', async () => {
      const { store } = await setup();
      await store.put(['opts'], 'k', { n: 1 });
      const bad: [unknown, RegExp][] = [
        ['newest', /search options to be an object, got `'newest'`/],
        [{ filter: { n: { $regex: '^1' } } }, /Unknown operator \$regex in the filter field "n"/],
        [{ filter: { n: { $gt: 0, unit: 'kg' } } }, /mixes operators \(\$gt\) with plain fields/],
        [{ filter: { n: { $in: 1 } } }, /\$in takes an array of JSON values/],
        [{ filter: { n: { $gte: {} } } }, /\$gte takes a finite number or a string/],
        [{ filter: { n: { $ne: undefined } } }, /\$ne takes a JSON value/],
        [{ filter: { n: () => 1 } }, /filter field "n" is not a JSON value: a function/],
        [{ filter: 'n=1' }, /`filter` to be an object of field conditions/],
        [{ limit: -1 }, /`limit` to be a non-negative integer, got `-1`/],
        [{ offset: 1.5 }, /`offset` to be a non-negative integer/],
        [{ limit: Number.NaN }, /`limit` to be a non-negative integer/],
        [{ query: 5 }, /`query` to be a string, got `5`/],
      ];
      for (const [options, message] of bad)
        await expect(store.search(['opts'], options as never)).rejects.toThrow(message);
      expect((await store.search(['opts'], { filter: { n: { $gte: 1, $in: [1, 2] } } })).map((i) => i.key)).toEqual([
        'k',
      ]);
      const badList: [unknown, RegExp][] = [
        [7, /listNamespaces options to be an object/],
        [{ maxDepth: 0 }, /`maxDepth` to be a positive integer, got `0`/],
        [{ limit: 2.5 }, /`limit` to be a non-negative integer/],
        [{ prefix: 'opts' }, /a namespace must be an array of labels/],
        [{ suffix: [''] }, /a namespace label must not be empty/],
      ];
      for (const [options, message] of badList)
        await expect(store.listNamespaces(options as never)).rejects.toThrow(message);
      await expect(store.update(['opts'], 'k', 5 as never)).rejects.toThrow(/`updater` to be a function, got `5`/);
      await expect(store.batch([{ op: 'drop' } as never])).rejects.toThrow(/Unknown store operation `'drop'`/);
      expect((await store.get(['opts'], 'k'))?.value).toEqual({ n: 1 });
    });

    it('returns at most 10 results unless asked for more', async () => {
      const { store } = await setup();
      await store.batch(
        Array.from({ length: 15 }, (_, i) => ({ op: 'put' as const, namespace: ['many'], key: `k${i}`, value: i })),
      );
      expect(await store.search(['many'])).toHaveLength(10);
      expect(await store.search(['many'], { limit: 100 })).toHaveLength(15);
    });

    it('lists namespaces with prefix, suffix, depth and pages', async () => {
      const { store } = await setup();
      for (const ns of [['a'], ['a', 'x'], ['a', 'y', 'docs'], ['b', 'docs'], ['b', 'docs'], ['c']])
        await store.put(ns, `k${Math.random()}`, 1);
      expect(await store.listNamespaces()).toEqual([['a'], ['a', 'x'], ['a', 'y', 'docs'], ['b', 'docs'], ['c']]);
      expect(await store.listNamespaces({ prefix: ['a'] })).toEqual([['a'], ['a', 'x'], ['a', 'y', 'docs']]);
      expect(await store.listNamespaces({ suffix: ['docs'] })).toEqual([
        ['a', 'y', 'docs'],
        ['b', 'docs'],
      ]);
      expect(await store.listNamespaces({ maxDepth: 1 })).toEqual([['a'], ['b'], ['c']]);
      expect(await store.listNamespaces({ limit: 2, offset: 1 })).toEqual([
        ['a', 'x'],
        ['a', 'y', 'docs'],
      ]);
    });

    it('runs a batch in order, all or nothing', async () => {
      const { store } = await setup();
      await store.put(['b'], 'old', 'before');
      const results = await store.batch([
        { op: 'put', namespace: ['b'], key: 'new', value: 'made' },
        { op: 'get', namespace: ['b'], key: 'new' },
        { op: 'delete', namespace: ['b'], key: 'old' },
        { op: 'get', namespace: ['b'], key: 'old' },
      ]);
      expect(results.map((r) => r?.value)).toEqual([undefined, 'made', undefined, undefined]);
      const failing = store.batch([
        { op: 'put', namespace: ['b'], key: 'x', value: 1 },
        { op: 'delete', namespace: ['b'], key: 'new' },
        { op: 'put', namespace: ['b'], key: 'y', value: { bad: () => 1 } as never },
      ]);
      await expect(failing).rejects.toBeInstanceOf(StoreValueError);
      expect(await store.get(['b'], 'x')).toBeUndefined();
      expect((await store.get(['b'], 'new'))?.value).toBe('made');
      await expect(store.batch([{ op: 'rename', namespace: ['b'], key: 'x' } as never])).rejects.toThrow(
        /Unknown store operation/,
      );
    });

    it('updates atomically: 50 concurrent increments make 50', async () => {
      const { store } = await setup();
      const increment = (v: unknown) => ((v as number | undefined) ?? 0) + 1;
      await Promise.all(Array.from({ length: 50 }, () => store.update(['counters'], 'hits', increment)));
      expect((await store.get(['counters'], 'hits'))?.value).toBe(50);
      expect(await store.update(['counters'], 'hits', () => undefined)).toBeUndefined();
      expect(await store.get(['counters'], 'hits')).toBeUndefined();
    });

    it('an updater that throws or returns a non-JSON value writes nothing', async () => {
      const { store } = await setup();
      await store.put(['u'], 'k', 1);
      await expect(
        store.update(['u'], 'k', () => {
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      await expect(store.update(['u'], 'k', () => ({ f: () => 1 }) as never)).rejects.toBeInstanceOf(StoreValueError);
      expect((await store.get(['u'], 'k'))?.value).toBe(1);
    });
  });
}
