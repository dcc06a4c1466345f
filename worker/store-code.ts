/**
 * The store code a tool worker loads when a tool first touches `runtime.store` (IndexedDB, idb,
 * the query engine, namespace scoping): serveTools imports it dynamically, so a worker whose
 * tools never use the store never loads it, and none loads it on the way to its first call.
 */

export { storeOverPort } from '../src/frame/store-over-port';
export { openIndexedDBStore } from '../src/store/indexeddb-store';
export { scopeStore } from '../src/store/scoped-store';
