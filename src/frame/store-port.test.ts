import { afterEach, describe, expect, it } from 'vitest';
import { storeContract } from '../../test/store-contract';
import { StoreKeyError } from '../errors/store-key-error';
import { StorePermissionError } from '../errors/store-permission-error';
import { createMemoryStore } from '../store/memory-store';
import { scopeStore } from '../store/scoped-store';
import type { Store } from '../store/types';
import { UpdateTurns } from '../store/update-turns';
import { storeOverPort } from './store-over-port';
import { serveStoreOn } from './store-port';

const stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops.splice(0)) stop();
});

/** A `Store` served across a MessageChannel by `store`. */
function across(store: Store, turns?: UpdateTurns): Store {
  const { port1, port2 } = new MessageChannel();
  stops.push(
    serveStoreOn(port1, async () => store, turns),
    () => port2.close(),
  );
  return storeOverPort(port2);
}

storeContract('storeOverPort (a memory store across a MessageChannel)', (clock) =>
  across(createMemoryStore({ now: clock.now })),
);

describe('storeOverPort', () => {
  it('loses no update when two ends race on one item: each reads again after a lost swap', async () => {
    const store = createMemoryStore();
    const [a, b] = [across(store), across(store)];
    const increment = (n: unknown) => (typeof n === 'number' ? n + 1 : 1);
    await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 3 === 0 ? store : i % 2 ? a : b).update(['c'], 'n', increment)),
    );
    expect((await store.get(['c'], 'n'))?.value).toBe(40);
  });

  it('lets four ports and the store itself update one counter at once, losing nothing (ports take turns)', async () => {
    const store = createMemoryStore();
    const turns = new UpdateTurns();
    const ports = Array.from({ length: 4 }, () => across(store, turns));
    const increment = (n: unknown) => (typeof n === 'number' ? n + 1 : 1);
    await Promise.all([
      ...ports.map(async (port) => {
        for (let i = 0; i < 25; i++) await port.update(['c'], 'n', increment);
      }),
      ...Array.from({ length: 25 }, () => store.update(['c'], 'n', increment)),
    ]);
    expect((await store.get(['c'], 'n'))?.value).toBe(125);
  });

  it('ends a turn whose updater threw, or whose port stopped: the next update does not wait for it', async () => {
    const store = createMemoryStore();
    const turns = new UpdateTurns(60_000);
    const remote = across(store, turns);
    await expect(
      remote.update(['t'], 'k', () => {
        throw new RangeError('no');
      }),
    ).rejects.toThrow('no');
    expect(await remote.update(['t'], 'k', () => 1)).toMatchObject({ value: 1 });
    // A port that stops in the middle of an update (its worker died) gives its turn back.
    const { port1, port2 } = new MessageChannel();
    const stop = serveStoreOn(port1, async () => store, turns);
    const doomed = storeOverPort(port2);
    let updaterRan!: () => void;
    const ran = new Promise<void>((resolve) => {
      updaterRan = resolve;
    });
    void doomed.update(['t'], 'k', (n) => {
      updaterRan();
      stop();
      return n;
    });
    await ran;
    expect(await remote.update(['t'], 'k', (n) => (n as number) + 1)).toMatchObject({ value: 2 });
    port2.close();
  });

  it('gives back the errors of the far end as the classes they were', async () => {
    const remote = across(createMemoryStore());
    const keyError = await remote.get(['ns'], '').catch((e: unknown) => e);
    expect(keyError).toBeInstanceOf(StoreKeyError);
    const scoped = scopeStore(remote, [['mine']], { toolName: 'notes' });
    await expect(scoped.put(['yours'], 'k', 1)).rejects.toBeInstanceOf(StorePermissionError);
  });

  it('runs the updater on the near end, and gives up on an item that changes under every try', async () => {
    const store = createMemoryStore();
    const remote = across(store);
    let runs = 0;
    const outcome = await remote
      .update(['hot'], 'k', (n) => {
        runs++;
        // Someone else writes between every read and its swap.
        void store.put(['hot'], 'k', runs * 1000);
        return typeof n === 'number' ? n + 1 : 1;
      })
      .catch((e: Error) => e);
    expect(outcome).toBeInstanceOf(Error);
    expect((outcome as Error).message).toBe('The item "k" in [hot] changed under every one of 51 tries to update it');
    expect(runs).toBe(51);
  });

  it('ignores what is not a store call, and stops answering once stopped', async () => {
    const { port1, port2 } = new MessageChannel();
    const store = createMemoryStore();
    const stop = serveStoreOn(port1, async () => store);
    port2.postMessage({ id: 'x', method: 'drop', args: [] });
    port2.postMessage({ id: 1, method: 'get' });
    const remote = storeOverPort(port2);
    await remote.put(['a'], 'k', 1);
    expect((await remote.get(['a'], 'k'))?.value).toBe(1);
    const closed = new Promise((resolve) => port2.addEventListener('close', resolve, { once: true }));
    stop();
    let answered = false;
    void remote.get(['a'], 'k').then(() => {
      answered = true;
    });
    // Stopping closes the served end: the channel says so, and nothing is left to answer.
    await closed;
    expect(answered).toBe(false);
    port2.close();
  });
});
