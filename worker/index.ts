/**
 * Moat's worker side (`moat/worker`): what runs inside a tool worker. Importing it installs the
 * network guard and takes the realm's locks (postMessage, the page's messages, the death watch)
 * before any tool runs; import it before libraries you do not trust.
 */
import { installNetworkGuard } from './network-guard';
import { lockRealm } from './realm-locks';

installNetworkGuard();
lockRealm();

export * from '../src/errors/index';
export type { Store, StoreItem } from '../src/store/types';
export { defineTool, type ToolDefinition, type ToolInit, type ToolReturn, type ToolRuntime } from './define-tool';
export { type PartsResult, type WithArtifact, type WithUpdate, withArtifact, withUpdate } from './results';
export { serveTools } from './serve-tools';
