export { Agent, createAgent } from './agent';
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
