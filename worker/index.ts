/**
 * Moat's worker side (`moat-sdk/worker`): what runs inside a tool worker. In a plain worker, importing
 * it installs the network guard and takes the realm's locks (postMessage, the page's messages, the
 * death watch) before any module imported after it runs: import it before libraries you do not
 * trust. In a sealed worker, Moat's runtime took them before any module of the tools ran, and this
 * copy only hands it the tools (see `serveTools`).
 */
import { installNetworkGuard } from './network-guard';
import { lockRealm } from './realm-locks';
import { sealedRuntime } from './sealed-runtime-hook';

if (!sealedRuntime()) {
  installNetworkGuard();
  lockRealm();
}

// The errors a tool throws or catches (the rest, and the wire's error helpers, are the page's).
export {
  MoatError,
  NetworkDeniedError,
  StoreKeyError,
  StorePermissionError,
  StoreQuotaError,
  StoreUnavailableError,
  StoreValueError,
  ToolError,
  type ToolErrorOptions,
  UnknownMediaTypeError,
} from '../src/errors/index';
export type { Store, StoreItem } from '../src/store/types';
export { defineTool, type ToolDefinition, type ToolInit, type ToolReturn, type ToolRuntime } from './define-tool';
export { type PartsResult, type WithArtifact, type WithUpdate, withArtifact, withUpdate } from './results';
export { serveTools } from './serve-tools';
