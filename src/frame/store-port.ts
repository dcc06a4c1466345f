/**
 * A store reached over a MessagePort. One end serves a real store (`serveStoreOn`); the other is
 * a `Store` whose calls go through the port (`storeOverPort`, ./store-over-port.ts). A tool worker hosted in a sandboxed
 * frame gets the page's store this way: its opaque origin has no IndexedDB of its own.
 *
 * Errors cross as `SerializedError`s and come back as the classes they were (`StoreKeyError`…).
 * `update` cannot send its updater (a function) across: the near end reads the item (taking the
 * item's turn at the far end, see `UpdateTurns`), runs the updater, and asks the far end to write
 * the result only if the value is still the one it read (compare and swap, in one transaction
 * there), which ends the turn; if a writer outside the turns changed it, it reads again.
 */
import { type SerializedError, serializeError } from '../errors/serialize-error';
import type { JSONValue } from '../json/json-value';
import type { Store, StoreItem } from '../store/types';
import { UpdateTurns } from '../store/update-turns';

export type Method = 'put' | 'get' | 'delete' | 'search' | 'listNamespaces' | 'batch' | 'read' | 'swap' | 'release';
export interface Ask {
  id: number;
  method: Method;
  args: unknown[];
}
export type Answer = { id: number; value: unknown } | { id: number; error: SerializedError };
/** What a swap did: wrote (the new item, or undefined when it deleted), or found the value changed. */
export type SwapOutcome = { item: StoreItem | undefined } | { changed: true };
/** A read for an update: the item, and the turn it holds at the far end (see `UpdateTurns`). */
export type ReadArgs = [namespace: string[], key: string];
export type ReadOutcome = { turn: number; item: StoreItem | undefined };
export type SwapArgs = [
  turn: number,
  namespace: string[],
  key: string,
  expected: string | null,
  next: JSONValue | undefined,
  options: { ttlMs?: number } | undefined,
];

const CHANGED = Symbol('changed');
const METHODS = new Set<string>([
  'put',
  'get',
  'delete',
  'search',
  'listNamespaces',
  'batch',
  'read',
  'swap',
  'release',
]);

/**
 * Answer the store calls that come on `port` with `store` (made on the first call); `turns` are
 * shared by every port that serves the same store. Returns a function that stops serving and
 * closes the port (ending the turns it holds); the store itself is the caller's to close.
 */
export function serveStoreOn(
  port: MessagePort,
  store: () => Promise<Store>,
  turns: UpdateTurns = new UpdateTurns(),
): () => void {
  /** The turns this port's updates hold, by number. */
  const held = new Map<number, () => void>();
  let turnCount = 0;
  const endTurn = (turn: unknown) => {
    held.get(turn as number)?.();
    held.delete(turn as number);
  };
  const run = async (method: Method, args: unknown[]): Promise<unknown> => {
    const s = await store();
    switch (method) {
      case 'put':
        return s.put(...(args as Parameters<Store['put']>));
      case 'get':
        return s.get(...(args as Parameters<Store['get']>));
      case 'delete':
        return s.delete(...(args as Parameters<Store['delete']>));
      case 'search':
        return s.search(...(args as Parameters<Store['search']>));
      case 'listNamespaces':
        return s.listNamespaces(...(args as Parameters<Store['listNamespaces']>));
      case 'batch':
        return s.batch(...(args as Parameters<Store['batch']>));
      case 'read': {
        const [namespace, key] = args as ReadArgs;
        const release = await turns.take(JSON.stringify([namespace, key]));
        const turn = ++turnCount;
        held.set(turn, release);
        try {
          return { turn, item: await s.get(namespace, key) } satisfies ReadOutcome;
        } catch (error) {
          endTurn(turn);
          throw error;
        }
      }
      case 'swap': {
        const [turn, ...rest] = args as SwapArgs;
        try {
          return await swap(s, ...rest);
        } finally {
          endTurn(turn);
        }
      }
      case 'release':
        endTurn(args[0]);
        return undefined;
    }
  };
  const onMessage = (event: MessageEvent) => {
    const ask = event.data as Ask;
    if (typeof ask?.id !== 'number' || !METHODS.has(ask.method) || !Array.isArray(ask.args)) return;
    run(ask.method, ask.args).then(
      (value) => port.postMessage({ id: ask.id, value } satisfies Answer),
      (error) => port.postMessage({ id: ask.id, error: serializeError(error) } satisfies Answer),
    );
  };
  port.addEventListener('message', onMessage);
  port.start();
  return () => {
    port.removeEventListener('message', onMessage);
    port.close();
    for (const turn of [...held.keys()]) endTurn(turn);
  };
}

/** Write `next` if the item's value is still `expected` (its JSON; null: absent), atomically. */
async function swap(
  store: Store,
  ...[namespace, key, expected, next, options]: SwapArgs extends [number, ...infer Rest] ? Rest : never
): Promise<SwapOutcome> {
  try {
    const item = await store.update(
      namespace,
      key,
      (current) => {
        if ((current === undefined ? null : JSON.stringify(current)) !== expected) throw CHANGED;
        return next;
      },
      options,
    );
    return { item };
  } catch (error) {
    if (error === CHANGED) return { changed: true };
    throw error;
  }
}
