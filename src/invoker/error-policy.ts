/**
 * What the model is told of a failed call: the invoker's `onError` policy (LangGraph ToolNode's
 * `handle_tool_errors`), checked, applied, and written to and read from JSON.
 */
import { describeValue, errorClassForName } from '../errors/moat-error';
import { ToolInputValidationError } from '../errors/tool-input-validation-error';
import { toolMessage } from '../messages/constructors';
import type { InvalidToolCall, ToolCall, ToolMessage } from '../messages/types';
import type { ErrorClass, OnError } from './types';

/** `onError` as JSON: error classes by name (`errorClassForName` finds them again). */
export type OnErrorJSON = 'return' | 'throw' | { text: string } | { errors: string[] };

/** The text the model sees for a failed call, unless `onError` says otherwise (LangGraph's wording). */
export function defaultErrorText(error: Error): string {
  return `Error: ${error.message}\n Please fix your mistakes.`;
}

/** `onError` as given, or a TypeError saying what it must be. */
export function checkOnError(onError: OnError): OnError {
  if (typeof onError === 'string' || typeof onError === 'function') return onError;
  if (Array.isArray(onError) && onError.every((c) => typeof c === 'function')) return onError;
  throw new TypeError(
    `Expected \`onError\` to be 'return', 'throw', a text, a function or a list of error classes, got ${describeValue(onError)}`,
  );
}

/** The model's text for a failed call, or undefined when the error must be thrown. */
export function errorText(policy: OnError, error: Error, call: ToolCall): string | undefined {
  if (policy === 'return') return defaultErrorText(error);
  if (policy === 'throw') return undefined;
  if (typeof policy === 'string') return policy;
  if (typeof policy === 'function') return policy(error, call);
  return policy.some((cls) => matches(cls, error)) ? defaultErrorText(error) : undefined;
}

/** A call that failed or did not run, as the error result the model reads (`defaultErrorText`). */
export function errorMessage(toolCallId: string, name: string, error: Error): ToolMessage {
  return toolMessage({ toolCallId, name, content: defaultErrorText(error), status: 'error' });
}

/**
 * A call the model wrote but that could not be read (broken argument JSON), as the error the
 * model is sent back so that it can correct itself next step, and that message.
 */
export function invalidCallMessage(bad: InvalidToolCall): { error: ToolInputValidationError; message: ToolMessage } {
  const error = new ToolInputValidationError({
    ...(bad.name === undefined ? {} : { toolName: bad.name }),
    toolCallId: bad.id,
    issues: [{ path: ['args'], message: bad.error }],
    message: `The call could not be read: ${bad.error}`,
  });
  return { error, message: errorMessage(bad.id, bad.name ?? '', error) };
}

/** The policy as JSON; a TypeError for a function, which is code. */
export function onErrorToJSON(policy: OnError): OnErrorJSON {
  if (policy === 'return' || policy === 'throw') return policy;
  if (typeof policy === 'string') return { text: policy };
  if (typeof policy === 'function') throw new TypeError('onError is a function: it cannot be written as JSON');
  return { errors: policy.map((cls) => (cls.prototype as Error).name) };
}

/** The policy `onErrorToJSON` wrote; a TypeError for an error class Moat does not know. */
export function onErrorFromJSON(json: OnErrorJSON): OnError {
  if (json === 'return' || json === 'throw') return json;
  if ('text' in json) return json.text;
  return json.errors.map((name) => {
    const cls = errorClassForName(name);
    if (!cls) throw new TypeError(`Unknown error class '${name}' in onError`);
    return cls;
  });
}

function matches(cls: ErrorClass, error: Error): boolean {
  const isInstance = (cls as unknown as { isInstance?: (e: unknown) => boolean }).isInstance;
  return typeof isInstance === 'function' ? isInstance.call(cls, error) : error instanceof cls;
}
