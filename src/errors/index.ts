export { AttachmentTooLargeError, type AttachmentTooLargeErrorOptions } from './attachment-too-large-error';
export { ChatBusyError } from './chat-busy-error';
export { CheckpointConflictError } from './checkpoint-conflict-error';
export { CheckpointError } from './checkpoint-error';
export { CodeError, type CodeErrorOptions } from './code-error';
export { isContextOverflow, overflowFigures } from './context-overflow';
export { InvalidToolSpecError, type InvalidToolSpecErrorOptions } from './invalid-tool-spec-error';
export { LocalModelError } from './local-model-error';
export { McpConnectionError, type McpConnectionErrorOptions, type McpFailure } from './mcp-connection-error';
export {
  formatIssues,
  MessageValidationError,
  type MessageValidationErrorOptions,
  type ValidationIssue,
} from './message-validation-error';
export { describeValue, MoatError, type MoatErrorOptions, quote, registerErrorClass } from './moat-error';
export { isRetryableStatus, MAX_ERROR_BODY, ModelHTTPError, type ModelHTTPErrorOptions } from './model-http-error';
export { ModelNetworkError } from './model-network-error';
export { ModelStreamError } from './model-stream-error';
export { NetworkDeniedError } from './network-denied-error';
export { OutputValidationError, type OutputValidationErrorOptions } from './output-validation-error';
export { PoolClosedError } from './pool-closed-error';
export { PoolQueueFullError } from './pool-queue-full-error';
export { SandboxCrashedError } from './sandbox-crashed-error';
export { SandboxLimitError, type SandboxLimitErrorOptions } from './sandbox-limit-error';
export { isSerializedError, reviveError, type SerializedError, serializeError } from './serialize-error';
export { StateMergeError } from './state-merge-error';
export { StoreKeyError } from './store-key-error';
export { StorePermissionError } from './store-permission-error';
export { StoreQuotaError } from './store-quota-error';
export { StoreUnavailableError } from './store-unavailable-error';
export { StoreValueError } from './store-value-error';
export { ThreadBusyError } from './thread-busy-error';
export { ThreadNotFoundError } from './thread-not-found-error';
export { ToolDeniedError } from './tool-denied-error';
export { describeCall, ToolError, type ToolErrorOptions } from './tool-error';
export { ToolExecutionError } from './tool-execution-error';
export { type ToolFailure, type ToolFailureKind, toolFailure } from './tool-failure';
export { ToolInputValidationError, type ToolInputValidationErrorOptions } from './tool-input-validation-error';
export { ToolNotFoundError, type ToolNotFoundErrorOptions } from './tool-not-found-error';
export { ToolOutputError } from './tool-output-error';
export { type OutputLimitKind, ToolOutputLimitError } from './tool-output-limit-error';
export { ToolTimeoutError, type ToolTimeoutErrorOptions } from './tool-timeout-error';
export { UnknownMediaTypeError, type UnknownMediaTypeErrorOptions } from './unknown-media-type-error';
export { UnsupportedContentError, type UnsupportedContentErrorOptions } from './unsupported-content-error';
export { WebMCPUnavailableError } from './webmcp-unavailable-error';
export { type Culprit, WorkerCrashedError } from './worker-crashed-error';
export { WorkerStartError } from './worker-start-error';
