/**
 * `moat-sdk/react`: `useChat`, a chat (`createChat`) in a React component. React is an optional
 * peer dependency: only an app that imports this subpath needs it, and `moat-sdk` itself never
 * imports React.
 */
export type { ChatActions, UseChatHelpers } from './use-chat';
export { useChat } from './use-chat';
