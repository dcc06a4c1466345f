import * as z from 'zod/mini';
import { MessageValidationError, type ValidationIssue } from '../errors/message-validation-error';
import { describeValue } from '../errors/moat-error';
import { isPlainObject, type JSONValue, toJSONValue } from '../json/json-value';
import type { Message } from './types';

const plainObject = z.custom<Record<string, unknown>>(isPlainObject, 'Expected a plain object');
const optionalString = z.optional(z.string());
const count = z.optional(z.number());

const usage = z.object({
  inputTokens: count,
  outputTokens: count,
  totalTokens: count,
  cachedInputTokens: count,
  reasoningTokens: count,
});

const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string(), id: optionalString }),
  z.object({ role: z.literal('user'), content: z.string(), id: optionalString }),
  z.object({
    role: z.literal('assistant'),
    content: z.string(),
    toolCalls: z.array(z.object({ id: z.string(), name: z.string(), args: plainObject })),
    invalidToolCalls: z.array(z.object({ id: z.string(), name: optionalString, args: z.string(), error: z.string() })),
    stopReason: z.optional(z.enum(['end', 'tool-calls', 'length', 'content-filter', 'other'])),
    id: optionalString,
    reasoning: optionalString,
    usage: z.optional(usage),
    metadata: z.optional(plainObject),
  }),
  z.object({
    role: z.literal('tool'),
    toolCallId: z.string(),
    name: z.string(),
    content: z.string(),
    status: z.enum(['success', 'error']),
    artifact: z.optional(z.unknown()),
    id: optionalString,
  }),
]);

/**
 * A message as JSON data: a deep copy with `undefined` fields dropped, safe for IndexedDB,
 * `JSON.stringify` and `postMessage`. Throws `MessageValidationError` when a field (an artifact,
 * say) holds something JSON cannot represent, naming the path.
 *
 * @example localStorage.setItem('last', JSON.stringify(messageToJSON(ai)))
 */
export function messageToJSON(message: Message): JSONValue {
  const copy = toJSONValue(message);
  if (!copy.success) {
    throw new MessageValidationError({
      value: message,
      issues: [{ path: copy.path, message: `${copy.reason} cannot be stored as JSON`, code: 'not_json' }],
    });
  }
  return copy.value;
}

export type SafeMessageFromJSON = { success: true; value: Message } | { success: false; error: MessageValidationError };

function issuesOf(error: z.core.$ZodError, prefix: (string | number)[] = []): ValidationIssue[] {
  return error.issues.map((issue) => ({
    path: [...prefix, ...issue.path.map((p) => (typeof p === 'symbol' ? String(p) : p))],
    message: issue.message,
    code: issue.code,
  }));
}

/**
 * Check a conversation before it is turned into a provider's request: every entry must be a
 * message. Throws `MessageValidationError` for the first one that is not, with its index in the
 * path (a missing `toolCallId` fails here, not as the provider's 400 later).
 *
 * @example checkMessages(history) // then toOpenAIChat(history) cannot trip over a bad entry
 */
export function checkMessages(history: unknown): readonly Message[] {
  if (!Array.isArray(history)) throw new TypeError(`Expected a list of messages, got ${describeValue(history)}`);
  for (let i = 0; i < history.length; i++) {
    const result = messageSchema.safeParse(history[i]);
    if (!result.success) throw new MessageValidationError({ value: history[i], issues: issuesOf(result.error, [i]) });
  }
  return history as readonly Message[];
}

/**
 * Read a message back from JSON data, checking its shape. Unknown fields are dropped.
 *
 * @example const r = safeMessageFromJSON(JSON.parse(text)); if (r.success) history.push(r.value)
 */
export function safeMessageFromJSON(value: unknown): SafeMessageFromJSON {
  const result = messageSchema.safeParse(value);
  if (result.success) return { success: true, value: withoutUndefined(result.data) as Message };
  return { success: false, error: new MessageValidationError({ value, issues: issuesOf(result.error) }) };
}

/**
 * Read a message back from JSON data; throws `MessageValidationError` when it is not one.
 *
 * @example const history = stored.map(messageFromJSON)
 */
export function messageFromJSON(value: unknown): Message {
  const result = safeMessageFromJSON(value);
  if (!result.success) throw result.error;
  return result.value;
}

/** zod writes optional keys it did not find as absent, but keeps explicit `undefined`s: drop them. */
function withoutUndefined<T extends object>(value: T): T {
  for (const key of Object.keys(value)) {
    if ((value as Record<string, unknown>)[key] === undefined) delete (value as Record<string, unknown>)[key];
  }
  return value;
}
