export {
  type AnthropicRequest,
  type AnthropicThinkingBlock,
  fromAnthropic,
  toAnthropic,
  toAnthropicTools,
} from './anthropic';
export {
  fromGemini,
  type GeminiMetadata,
  type GeminiRequest,
  type ToGeminiToolsOptions,
  toGemini,
  toGeminiTools,
} from './gemini';
export { fromOllama, toOllama, toOllamaTools } from './ollama';
export {
  fromOpenAIChat,
  type ToOpenAIChatOptions,
  type ToOpenAIToolsOptions,
  toOpenAIChat,
  toOpenAITools,
} from './openai-chat';
export { fromOpenAIResponses, toOpenAIResponses, toOpenAIResponsesTools } from './openai-responses';
export {
  type OutputFormat,
  toAnthropicOutputFormat,
  toAnthropicSchema,
  toGeminiOutputConfig,
  toOpenAIResponseFormat,
  toOpenAIResponsesFormat,
} from './output-format';
export {
  type JSONSchema,
  strictModeProblems,
  TOOL_NAME_PATTERN,
  type ToolSpec,
  validateToolSpec,
  validateToolSpecs,
} from './tool-spec';
export { type ToolSpecInit, toolSpec } from './zod-spec';
