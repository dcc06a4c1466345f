/**
 * The store's connection to its IndexedDB database: opened on first use and brought up to the
 * current schema, stepping aside when another tab upgrades it (reopened on next use), and one
 * transaction at a time run on it.
 */
import { openDB, unwrap } from 'idb';
import { ENTRIES, STORE_MIGRATIONS, STORE_SCHEMA_VERSION, type UpgradeTx, WRITE_SCOPE } from './layout';
import { type Guard, runTransaction } from './transaction';

export class StoreConnection {
  readonly #name: string;
  readonly #opened: () => void;
  #db: Promise<IDBDatabase> | undefined;
  /** The open connection, once known: transactions start without an await. */
  #ready: IDBDatabase | undefined;

  /** `opened` is told each time a connection opens (the store sweeps then). */
  constructor(name: string, opened: () => void) {
    this.#name = name;
    this.#opened = opened;
  }

  /**
   * One transaction on the items, driven by request callbacks (no promise per request): `body`
   * issues requests and records the answer in `out.value`; the promise settles when the
   * transaction completes (or rolls back: an error thrown in a callback aborts it).
   */
  async transact<T>(
    mode: IDBTransactionMode,
    body: (store: IDBObjectStore, out: { value?: T }, guard: Guard) => void,
    /** The stores it may touch; `body` gets the first. */
    scope: string[] = mode === 'readwrite' ? WRITE_SCOPE : [ENTRIES],
  ): Promise<T> {
    let tx: IDBTransaction;
    try {
      tx = (this.#ready ?? (await this.#open())).transaction(scope, mode);
    } catch {
      // The connection was closed under us (another tab upgrading): reopen, once.
      this.#forget();
      tx = (await this.#open()).transaction(scope, mode);
    }
    return runTransaction(tx, scope[0] as string, body);
  }

  close(): void {
    const db = this.#db;
    this.#forget();
    db?.then((d) => d.close()).catch(() => {});
  }

  #forget(): void {
    this.#db = undefined;
    this.#ready = undefined;
  }

  #open(): Promise<IDBDatabase> {
    if (this.#db) return this.#db;
    const forget = () => this.#forget();
    const callbacks = {
      // A newer version wants the database (another tab): step aside, reopen on next use.
      blocking: (_current: number, _next: number | null, event: IDBVersionChangeEvent) => {
        (event.target as IDBDatabase).close();
        forget();
      },
      terminated: forget,
    };
    const opening = openDB(this.#name, STORE_SCHEMA_VERSION, {
      ...callbacks,
      upgrade(db, oldVersion, newVersion, tx) {
        for (let v = oldVersion; v < (newVersion ?? STORE_SCHEMA_VERSION); v++)
          STORE_MIGRATIONS[v]?.(db, tx as UpgradeTx);
      },
    })
      .catch((error: unknown) => {
        // Newer code (another tab) already upgraded it: use it as it is.
        if ((error as { name?: string })?.name === 'VersionError') return openDB(this.#name, undefined, callbacks);
        throw error;
      })
      .then((db) => {
        const raw = unwrap(db);
        if (this.#db === opening) this.#ready = raw;
        return raw;
      });
    this.#db = opening;
    opening.then(
      () => this.#opened(),
      () => forget(),
    );
    return opening;
  }
}
