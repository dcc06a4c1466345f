/**
 * `moat-sdk/pool`: the worker pool's parts beyond `createWorkerPool` (which `moat-sdk` exports): the
 * pool's class and types, `framedWorkers` (the sealed default, by name), and the
 * Content-Security-Policy that closes `import()` to a plain worker's script.
 */
export { framedWorkers } from '../frame/framed-worker';
export { workerContentSecurityPolicy } from '../frame/worker-csp';
export type { ToolArgs, ToolGrant, ToolName, ToolOutput, ToolSet, TypedToolCall } from './pool-options';
export { resultValue, type ToolResult } from './pool-options';
export type { CallResult, NetworkPolicyWire, ResultFormat, ToolDescriptor } from './protocol';
export {
  type CallOptions,
  type CallOutcome,
  createWorkerPool,
  type NetworkPolicy,
  type PoolStats,
  WorkerPool,
  type WorkerPoolOptions,
} from './worker-pool';
