import { describe, expect, it, vi } from 'vitest';
import { storeContract } from '../../test/store-contract';
import { deferredStore } from './deferred-store';
import { createMemoryStore } from './memory-store';

// The subject: a store that arrives a task late, as a worker's store code does while it loads.
const later = <T>(value: T) => new Promise<T>((resolve) => setTimeout(() => resolve(value), 1));

storeContract('deferredStore', (clock) => deferredStore(later(createMemoryStore({ now: clock.now }))));

describe('deferredStore', () => {
  it('sends each call to the store once it has come, in order', async () => {
    const store = deferredStore(later(createMemoryStore()));
    const writes = [
      store.put(['n'], 'a', 1),
      store.put(['n'], 'a', 2),
      store.update(['n'], 'a', (v) => (v as number) + 1),
    ];
    await Promise.all(writes);
    expect((await store.get(['n'], 'a'))?.value).toBe(3);
  });

  it('rejects every call with the reason when the store never comes; close does not throw', async () => {
    const reason = new TypeError('Failed to fetch dynamically imported module');
    const store = deferredStore(Promise.reject(reason));
    await expect(store.put(['n'], 'k', 1)).rejects.toBe(reason);
    await expect(store.get(['n'], 'k')).rejects.toBe(reason);
    await expect(store.delete(['n'], 'k')).rejects.toBe(reason);
    await expect(store.update(['n'], 'k', () => 1)).rejects.toBe(reason);
    await expect(store.search(['n'])).rejects.toBe(reason);
    await expect(store.listNamespaces()).rejects.toBe(reason);
    await expect(store.batch([])).rejects.toBe(reason);
    expect(() => store.close()).not.toThrow();
  });

  it('closes the store once it has come', async () => {
    const inner = createMemoryStore();
    const close = vi.spyOn(inner, 'close');
    let arrive!: (store: typeof inner) => void;
    const store = deferredStore(new Promise<typeof inner>((resolve) => (arrive = resolve)));
    store.close();
    expect(close).not.toHaveBeenCalled();
    arrive(inner);
    await vi.waitFor(() => expect(close).toHaveBeenCalledOnce(), { timeout: 1_000, interval: 1 });
  });
});
