export { framedWorkers } from './framed-worker';
export type { CallResult, NetworkPolicyWire, ResultFormat, ToolDescriptor } from './protocol';
export { resultValue, type ToolResult } from './tool-result';
export { workerContentSecurityPolicy } from './worker-csp';
export {
  type CallOptions,
  type CallOutcome,
  createWorkerPool,
  type NetworkPolicy,
  type PoolStats,
  type StoreHost,
  type WorkerHost,
  WorkerPool,
  type WorkerPoolOptions,
} from './worker-pool';
