export {
  type Checkpoint,
  type Checkpointer,
  createMemoryCheckpointer,
  type ListCheckpointsOptions,
  openIndexedDBCheckpointer,
  type ThreadSummary,
} from './checkpointer';
export { openIndexedDBStore } from './indexeddb-store';
export { STORE_MIGRATIONS, STORE_SCHEMA_VERSION } from './layout';
export { createMemoryStore } from './memory-store';
export { scopeStore } from './scoped-store';
export type {
  FieldFilter,
  ListNamespacesOptions,
  Store,
  StoreItem,
  StoreOp,
  StoreOptions,
  StoreSearchOptions,
  StoreUpdater,
} from './types';
