/** What a batch's puts replace, read before they are written (to keep each record's createdAt). */

import { keyId, type StoredRecord } from './layout';
import type { Guard } from './transaction';
import type { StoreOp } from './types';

/** Below this many keys of one namespace in a batch, read them one by one rather than as a range. */
const RANGE_READ_MIN = 8;

/**
 * The records a batch's puts replace, then `next`. Keys of one namespace are read with one
 * ranged `getAll` between the batch's smallest and largest key (capped: a sparse batch over a
 * large namespace falls back to reading its keys one by one).
 */
export function readExisting(
  store: IDBObjectStore,
  ops: readonly StoreOp[],
  guard: Guard,
  next: (existing: Map<string, StoredRecord | undefined>) => void,
  /** Called instead of reading keys one by one when a ranged read comes back capped. */
  onSparse?: () => void,
): void {
  const existing = new Map<string, StoredRecord | undefined>();
  const byNamespace = new Map<string, { ns: string[]; keys: Set<string> }>();
  for (const op of ops) {
    if (op.op !== 'put') continue;
    const nsId = op.namespace.join('\u0000');
    let group = byNamespace.get(nsId);
    if (!group) {
      group = { ns: op.namespace, keys: new Set() };
      byNamespace.set(nsId, group);
    }
    group.keys.add(op.key);
  }
  let pending = 0;
  let issued = false;
  const done = () => {
    if (--pending === 0 && issued) next(existing);
  };
  const readOne = (ns: string[], key: string) => {
    pending++;
    const request = store.get([ns, key]);
    request.onsuccess = guard(() => {
      existing.set(keyId(ns, key), request.result);
      done();
    });
  };
  for (const { ns, keys } of byNamespace.values()) {
    if (keys.size < RANGE_READ_MIN) {
      for (const key of keys) readOne(ns, key);
      continue;
    }
    const sorted = [...keys].sort();
    const cap = keys.size * 4 + 16;
    pending++;
    const request = store.getAll(IDBKeyRange.bound([ns, sorted[0]], [ns, sorted[sorted.length - 1]]), cap);
    request.onsuccess = guard(() => {
      const found = request.result as StoredRecord[];
      if (found.length >= cap) {
        if (onSparse) return onSparse();
        for (const key of keys) readOne(ns, key);
      } else {
        for (const record of found) if (keys.has(record.key)) existing.set(keyId(ns, record.key), record);
      }
      done();
    });
  }
  issued = true;
  if (pending === 0) next(existing);
}
