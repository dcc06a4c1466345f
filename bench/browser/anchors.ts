/**
 * The physical anchors: what the platform itself costs on this machine, measured in the same run
 * as everything that is compared with them.
 */
import { wrap } from 'comlink';
import { oneMegabyteObject } from '../../test/records';
import { type BenchCase, time } from '../case';

export const ROUND_TRIPS = 200;
const IN_FLIGHT = 10_000;

export function echoWorker(): Promise<Worker> {
  const worker = new Worker(new URL('../workers/echo.worker.ts', import.meta.url), { type: 'module' });
  return new Promise((resolve) => {
    worker.onmessage = () => resolve(worker);
  });
}

/** Send `data`, wait for the echo. */
export function roundTrip(worker: Worker, data: unknown): Promise<unknown> {
  return new Promise((resolve) => {
    worker.onmessage = (event) => resolve(event.data);
    worker.postMessage(data);
  });
}

/** Start a worker (and post it `first`, if given) and time it until its first message (then stop it). */
function untilFirstMessage(make: () => Worker, first?: unknown): Promise<number> {
  return time(
    () =>
      new Promise<void>((resolve) => {
        const worker = make();
        worker.onmessage = () => {
          worker.terminate();
          resolve();
        };
        if (first !== undefined) worker.postMessage(first);
      }),
  );
}

/** Between cold starts: the worker stopped before has gone (its thread torn down), not overlapping the next start. */
export const COLD_START_PAUSE_MS = 50;

function openDatabase(): Promise<{ db: IDBDatabase; name: string }> {
  const name = `moat-bench-${crypto.randomUUID()}`;
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(name, 1);
    request.onupgradeneeded = () => request.result.createObjectStore('items');
    request.onsuccess = () => resolve({ db: request.result, name });
    request.onerror = () => reject(request.error);
  });
}

function txDone(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

const record = (i: number) => ({ id: i, text: `item ${i}`, tags: ['a', 'b'], at: i * 1000 });

export const anchorCases: BenchCase[] = [
  {
    name: 'anchor/postmessage-rtt',
    unit: 'ms',
    note: `raw postMessage to a module worker and back, mean of ${ROUND_TRIPS} sequential trips`,
    async setup() {
      const worker = await echoWorker();
      return {
        sample: async () =>
          (await time(async () => {
            for (let i = 0; i < ROUND_TRIPS; i++) await roundTrip(worker, i);
          })) / ROUND_TRIPS,
        teardown: () => worker.terminate(),
      };
    },
  },
  {
    name: 'anchor/comlink-rtt',
    unit: 'ms',
    anchor: 'anchor/postmessage-rtt',
    note: `one Comlink call to a module worker, mean of ${ROUND_TRIPS} sequential calls`,
    async setup() {
      const worker = new Worker(new URL('../workers/comlink-echo.worker.ts', import.meta.url), { type: 'module' });
      const remote = wrap<{ echo(v: unknown): unknown }>(worker);
      await remote.echo(0);
      return {
        sample: async () =>
          (await time(async () => {
            for (let i = 0; i < ROUND_TRIPS; i++) await remote.echo(i);
          })) / ROUND_TRIPS,
        teardown: () => worker.terminate(),
      };
    },
  },
  {
    name: 'anchor/postmessage-throughput',
    unit: 'ops/s',
    note: `${IN_FLIGHT.toLocaleString('en-US')} raw postMessage calls in flight to one worker, replies counted`,
    repeat: 9,
    async setup() {
      const worker = await echoWorker();
      return {
        sample: async () => {
          const elapsed = await time(
            () =>
              new Promise<void>((resolve) => {
                let left = IN_FLIGHT;
                worker.onmessage = () => {
                  if (--left === 0) resolve();
                };
                for (let i = 0; i < IN_FLIGHT; i++) worker.postMessage(i);
              }),
          );
          return IN_FLIGHT / (elapsed / 1000);
        },
        teardown: () => worker.terminate(),
      };
    },
  },
  {
    name: 'anchor/worker-cold-start',
    unit: 'ms',
    note: 'new Worker(bare module) until its first message',
    pauseMs: COLD_START_PAUSE_MS,
    setup: () => ({
      sample: () =>
        untilFirstMessage(() => new Worker(new URL('../workers/bare.worker.ts', import.meta.url), { type: 'module' })),
    }),
  },
  {
    name: 'anchor/zod-tool-worker',
    unit: 'ms',
    anchor: 'anchor/worker-cold-start',
    pauseMs: COLD_START_PAUSE_MS,
    repeat: 25,
    note: "new Worker(a module loading zod/mini, building the bench tools' three schemas, validating the first message and answering it) until the answer: the least a zod tool worker costs",
    setup: () => ({
      sample: () =>
        untilFirstMessage(
          () => new Worker(new URL('../workers/zod-tool.worker.ts', import.meta.url), { type: 'module' }),
          { i: 1 },
        ),
    }),
  },
  {
    name: 'anchor/tools-script-load',
    unit: 'ms',
    anchor: 'anchor/worker-cold-start',
    note: 'new Worker(the pool benchmark tools script, not serving) until its first message: loading moat-sdk/worker, zod/mini and the tools',
    pauseMs: COLD_START_PAUSE_MS,
    setup: () => ({
      sample: () =>
        untilFirstMessage(
          () => new Worker(new URL('../workers/pool-tools-load.worker.ts', import.meta.url), { type: 'module' }),
        ),
    }),
  },
  {
    name: 'anchor/1mb-clone-rtt',
    unit: 'ms',
    note: 'a ~1 MB object graph (5,000 records) to a worker and back by structured clone',
    async setup() {
      const worker = await echoWorker();
      const data = oneMegabyteObject();
      return { sample: () => time(() => roundTrip(worker, data)), teardown: () => worker.terminate() };
    },
  },
  {
    name: 'anchor/1mb-string-rtt',
    unit: 'ms',
    anchor: 'anchor/1mb-clone-rtt',
    note: 'the same data as one ~1 MB JSON string, to a worker and back',
    async setup() {
      const worker = await echoWorker();
      const text = JSON.stringify(oneMegabyteObject());
      return { sample: () => time(() => roundTrip(worker, text)), teardown: () => worker.terminate() };
    },
  },
  {
    name: 'anchor/idb-put-1000-one-tx',
    unit: 'ms',
    note: '1,000 raw IndexedDB puts of small records in one readwrite transaction',
    async setup() {
      const { db, name } = await openDatabase();
      let round = 0;
      return {
        sample: () =>
          time(() => {
            const tx = db.transaction('items', 'readwrite');
            const store = tx.objectStore('items');
            const base = round++ * 1000;
            for (let i = 0; i < 1000; i++) store.put(record(base + i), base + i);
            return txDone(tx);
          }),
        teardown: () => {
          db.close();
          indexedDB.deleteDatabase(name);
        },
      };
    },
  },
  {
    name: 'anchor/idb-put-1000-separate',
    unit: 'ms',
    anchor: 'anchor/idb-put-1000-one-tx',
    note: '1,000 raw IndexedDB puts, each in its own transaction, awaited one after another',
    repeat: 7,
    async setup() {
      const { db, name } = await openDatabase();
      let round = 0;
      return {
        sample: () =>
          time(async () => {
            const base = round++ * 1000;
            for (let i = 0; i < 1000; i++) {
              const tx = db.transaction('items', 'readwrite');
              tx.objectStore('items').put(record(base + i), base + i);
              await txDone(tx);
            }
          }),
        teardown: () => {
          db.close();
          indexedDB.deleteDatabase(name);
        },
      };
    },
  },
];
