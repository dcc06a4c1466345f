/**
 * What a tool worker loads only when first needed, in one module (one load, one chunk):
 * describing the tools (zod's JSON Schema code, the largest part of a worker), Comlink (which
 * carries the page's describe request) and the store (IndexedDB, idb, the query engine).
 * serveTools imports it dynamically; nothing on the path to a first call needs it.
 */
export { expose } from 'comlink';
export { openIndexedDBStore } from '../src/store/indexeddb-store';
export { scopeStore } from '../src/store/scoped-store';
export { describeTool } from './describe-tool';
