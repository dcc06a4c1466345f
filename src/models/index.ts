export { isContextOverflow, overflowFigures } from '../errors/context-overflow';
export { type AnthropicOptions, anthropic } from './anthropic';
export { type GeminiOptions, gemini } from './gemini';
export { type OllamaOptions, ollama } from './ollama';
export { type OpenAIChatClient, type OpenAICompatibleOptions, openAICompatible } from './openai-compatible';
export { type ScriptedModelOptions, type ScriptedTurn, scriptedModel } from './scripted-model';
export type {
  ChatModel,
  HttpClientOptions,
  ModelInfoOptions,
  ModelRequest,
  ModelSettings,
  ModelStream,
  ToolChoice,
} from './types';
