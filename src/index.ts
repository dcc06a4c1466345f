/**
 * Moat: what an app uses. The agent and its model clients, the sealed tool pool, the code
 * sandbox, the store and checkpointer openers, and the errors an app branches on: those that
 * reject what an app calls and ask it for something other than showing the message (retry, ask
 * for a key, wait its turn, free storage, fix its setup). A failed tool call is not one of them:
 * a chat's part says its kind (`UIToolPart.error`), and its classes are on `moat-sdk/errors`
 * with every other error.
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
export { CodeError } from './errors/code-error';
export { McpConnectionError } from './errors/mcp-connection-error';
export { MoatError } from './errors/moat-error';
export { ModelHTTPError } from './errors/model-http-error';
export { ModelNetworkError } from './errors/model-network-error';
export { ModelStreamError } from './errors/model-stream-error';
export { OutputValidationError } from './errors/output-validation-error';
export { StoreQuotaError } from './errors/store-quota-error';
export { StoreUnavailableError } from './errors/store-unavailable-error';
export { ThreadBusyError } from './errors/thread-busy-error';
export { ThreadNotFoundError } from './errors/thread-not-found-error';
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
export { resultValue, type ToolResult } from './pool/pool-options';
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
