export {
  type Checkpoint,
  type Checkpointer,
  createMemoryCheckpointer,
  type ListCheckpointsOptions,
  openIndexedDBCheckpointer,
  type ThreadSummary,
} from './checkpointer';
export { openIndexedDBStore, STORE_MIGRATIONS, STORE_SCHEMA_VERSION } from './indexeddb-store';
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
