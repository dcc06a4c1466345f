export { Agent, createAgent } from './agent';
export type { IfBusy } from './thread-lock';
export type {
  AgentEvent,
  AgentInput,
  AgentOptions,
  AgentResult,
  AgentStopReason,
  AgentStreamOptions,
  ApprovalContext,
  ApprovalDecision,
  ApprovalPolicyAnswer,
  ThreadSnapshot,
} from './types';
