export { InvalidToolSpecError, type InvalidToolSpecErrorOptions } from './invalid-tool-spec-error';
export {
  formatIssues,
  MessageValidationError,
  type MessageValidationErrorOptions,
  type ValidationIssue,
} from './message-validation-error';
export { describeValue, MoatError, type MoatErrorOptions, quote, registerErrorClass } from './moat-error';
export { isSerializedError, reviveError, type SerializedError, serializeError } from './serialize-error';
