/**
 * Deleting expired items: their expiry entries are one key range (`dueBy`), read first without a
 * write lock, so a store with nothing expired never takes one for the sweep.
 */
import type { StoreConnection } from './connection';
import { dueBy, ENTRIES, type StoredRecord } from './layout';

/** Delete every item expired at `at`; resolves with how many. */
export async function sweepExpired(connection: StoreConnection, at: number): Promise<number> {
  const due = await connection.transact<number>(
    'readonly',
    (expiries, out) => {
      const request = expiries.count(dueBy(at));
      request.onsuccess = () => {
        out.value = request.result;
      };
    },
    ['expiries'],
  );
  if (due === 0) return 0;
  return connection.transact<number>(
    'readwrite',
    (expiries, out, guard) => {
      out.value = 0;
      const items = expiries.transaction.objectStore(ENTRIES);
      const cursor = expiries.openCursor(dueBy(at));
      cursor.onsuccess = guard(() => {
        const c = cursor.result;
        if (!c) return;
        const { ns, key } = c.value as { ns: string[]; key: string };
        const request = items.get([ns, key]);
        request.onsuccess = guard(() => {
          const record = request.result as StoredRecord | undefined;
          // Rewritten since with a later expiry (its own entry) or none: it stays.
          if (record?.expiresAt === undefined || record.expiresAt > at) return;
          items.delete([ns, key]);
          out.value = (out.value ?? 0) + 1;
        });
        c.delete();
        c.continue();
      });
    },
    ['expiries', ENTRIES],
  );
}
