/**
 * Moat: what an app uses. The agent and its model clients, the sealed tool pool, the code
 * sandbox, the store and checkpointer openers, and the errors an app catches.
 *
 * The building blocks for advanced use live on subpaths: `moat-sdk/providers` (provider formats and
 * tool specs), `moat-sdk/stream` (stream decoders), `moat-sdk/json` (the partial JSON parser),
 * `moat-sdk/messages` (the message model), `moat-sdk/invoker` (the ToolInvoker's parts), `moat-sdk/mcp`
 * (MCP and WebMCP, with OAuth for MCP servers), `moat-sdk/store` (the store's parts) and `moat-sdk/errors` (every error class, and how errors cross workers). Tools
 * are written with `moat-sdk/worker`.
 */
export { createAgent } from './agent/agent';
export type {
  Agent,
  AgentEvent,
  AgentInput,
  AgentOptions,
  AgentResult,
  AgentStopReason,
  AgentStreamOptions,
  ApprovalContext,
  ApprovalDecision,
  Budget,
  BudgetStop,
  ModelPrice,
  PrepareStepContext,
  StepPlan,
  StopCondition,
  StopContext,
  ThreadSnapshot,
  UsageTotals,
} from './agent/index';
export {
  type Attachment,
  type Chat,
  type ChatAgent,
  type ChatOptions,
  type ChatSnapshot,
  type ChatStatus,
  type ChatThread,
  createChat,
  type SendOptions,
  type UIMediaPart,
  type UIMessage,
  type UIPart,
  type UIToolError,
  type UIToolErrorKind,
  type UIToolPart,
  type UIToolState,
} from './chat/index';
export { ChatBusyError } from './errors/chat-busy-error';
export { CheckpointConflictError } from './errors/checkpoint-conflict-error';
export { CheckpointError } from './errors/checkpoint-error';
export { CodeError } from './errors/code-error';
export { McpConnectionError } from './errors/mcp-connection-error';
export { MoatError } from './errors/moat-error';
export { ModelHTTPError } from './errors/model-http-error';
export { ModelNetworkError } from './errors/model-network-error';
export { ModelStreamError } from './errors/model-stream-error';
export { NetworkDeniedError } from './errors/network-denied-error';
export { OutputValidationError } from './errors/output-validation-error';
export { PoolClosedError } from './errors/pool-closed-error';
export { SandboxCrashedError } from './errors/sandbox-crashed-error';
export { SandboxLimitError } from './errors/sandbox-limit-error';
export { StorePermissionError } from './errors/store-permission-error';
export { StoreQuotaError } from './errors/store-quota-error';
export { StoreUnavailableError } from './errors/store-unavailable-error';
export { ThreadBusyError } from './errors/thread-busy-error';
export { ToolDeniedError } from './errors/tool-denied-error';
export { ToolError } from './errors/tool-error';
export { ToolExecutionError } from './errors/tool-execution-error';
export { ToolInputValidationError } from './errors/tool-input-validation-error';
export { ToolNotFoundError } from './errors/tool-not-found-error';
export { ToolOutputError } from './errors/tool-output-error';
export { ToolTimeoutError } from './errors/tool-timeout-error';
export { WorkerCrashedError } from './errors/worker-crashed-error';
export { WorkerStartError } from './errors/worker-start-error';
export { ToolInvoker } from './invoker/tool-invoker';
export type {
  Interceptor,
  PageTool,
  ToolEvent,
  ToolInvokerOptions,
  ToolRequest,
  ToolSource,
  ToolSourceRuntime,
} from './invoker/types';
export type { JSONValue } from './json/json-value';
export { type AllowTools, type McpServer, type McpServerOptions, type McpTool, mcpServer } from './mcp/mcp-server';
export { type ExposedTools, type ExposeToolsOptions, exposeTools, pageTools } from './mcp/webmcp';
export type { ContentPartInput } from './messages/to-content-part';
export type { AIMessage, ContentPart, Message, ToolCall, ToolMessage, UserMessage } from './messages/types';
export {
  type AnthropicOptions,
  anthropic,
  type GeminiOptions,
  gemini,
  type OllamaOptions,
  type OpenAIChatClient,
  type OpenAICompatibleOptions,
  ollama,
  openAICompatible,
  type ScriptedTurn,
  scriptedModel,
} from './models/index';
export type { ChatModel, ModelSettings } from './models/types';
export type { OutputOf, OutputSchema, StandardSchema } from './output/index';
export { resultValue, type ToolResult } from './pool/tool-result';
export {
  type CallOptions,
  createWorkerPool,
  type NetworkPolicy,
  type WorkerPool,
  type WorkerPoolOptions,
} from './pool/worker-pool';
export type { ToolSpec } from './providers/tool-spec';
export {
  type CodeRunResult,
  type CodeSandbox,
  type CodeSandboxOptions,
  createCodeSandbox,
} from './sandbox/code-sandbox';
export { codeTool, type NestedCall } from './sandbox/code-tool';
export { type Checkpointer, openIndexedDBCheckpointer } from './store/checkpointer';
export { openIndexedDBStore } from './store/indexeddb-store';
export { createMemoryStore } from './store/memory-store';
export type { Store, StoreItem } from './store/types';
