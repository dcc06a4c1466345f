export { Chat, createChat } from './create-chat';
export type {
  ChatAgent,
  ChatOptions,
  ChatSnapshot,
  ChatStatus,
  ChatThread,
  UIMessage,
  UIOutputPart,
  UIPart,
  UIReasoningPart,
  UITextPart,
  UIToolPart,
  UIToolState,
} from './types';
