export { defaultErrorText, type OnErrorJSON } from './error-policy';
export { isPageTool } from './page-tool';
export { mergeUpdates, type StateUpdate } from './state-merge';
export { ToolInvoker, type ToolInvokerJSON } from './tool-invoker';
export { ToolTurn, type WithTurnResults } from './tool-turn';
export { toolsCondition, turnInput } from './turn-input';
export type {
  ErrorClass,
  Interceptor,
  InvokerInput,
  Nested,
  NextTool,
  OnError,
  PageTool,
  PageToolRuntime,
  Reducer,
  RunOptions,
  RunResult,
  ToolEvent,
  ToolInvokerOptions,
  ToolOutcome,
  ToolRequest,
} from './types';
