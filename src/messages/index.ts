export {
  type AIMessageInit,
  aiMessage,
  systemMessage,
  type ToolMessageInit,
  toolMessage,
  userMessage,
} from './constructors';
export { fitImages } from './fit-images';
export { IMAGE_LIMITS, type ImageLimits } from './image-limits';
export { imageSize } from './media-data';
export { type MergedToolCallChunks, mergeToolCallChunks } from './merge-tool-call-chunks';
export {
  checkMessages,
  messageFromJSON,
  messageToJSON,
  type SafeMessageFromJSON,
  safeMessageFromJSON,
} from './message-json';
export {
  type ParsedToolCall,
  type ParseToolCallOptions,
  parseToolCall,
  type RawToolCall,
  toolCallFromArgs,
} from './parse-tool-call';
export {
  hasToolCalls,
  isAIMessage,
  isSystemMessage,
  isText,
  isToolMessage,
  isToolStop,
  isUserMessage,
} from './predicates';
export { textOf } from './text-of';
export {
  type ContentPartInput,
  type FilePartInput,
  type ImagePartInput,
  type MediaInput,
  toContent,
  toContentPart,
} from './to-content-part';
export type {
  AIMessage,
  Content,
  ContentPart,
  FilePart,
  ImagePart,
  InvalidToolCall,
  Message,
  Role,
  StopReason,
  SystemMessage,
  TextPart,
  ToolCall,
  ToolCallChunk,
  ToolMessage,
  Usage,
  UserMessage,
} from './types';
