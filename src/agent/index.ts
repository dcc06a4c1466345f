export { Agent, createAgent } from './agent';
export type { IfBusy } from './thread-lock';
export type {
  AgentEvent,
  AgentInput,
  AgentOptions,
  AgentOutputResult,
  AgentResult,
  AgentStopReason,
  AgentStreamOptions,
  AnsweredStopReason,
  ApprovalContext,
  ApprovalDecision,
  ApprovalPolicyAnswer,
  DeepPartial,
  PrepareStepContext,
  StepPlan,
  StopCondition,
  StopContext,
  ThreadSnapshot,
} from './types';
export type { Budget, BudgetStop, ModelPrice, UsageTotals } from './usage';
