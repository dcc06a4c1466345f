import { MessageValidationError, type ValidationIssue } from '../errors/message-validation-error';
import { describeValue } from '../errors/moat-error';
import { isPlainObject, type JSONValue, toJSONValue } from '../json/json-value';
import { isFetchedURL, MEDIA_TYPE, mediaDataProblem } from './media-data';
import type { Message } from './types';

/**
 * The shape of each message, checked by hand (no schema library: this runs on every page that
 * sends a request). A field is a check that returns a problem in words, or undefined.
 */
type Check = (value: unknown, path: (string | number)[], issues: ValidationIssue[]) => void;

const issue = (issues: ValidationIssue[], path: (string | number)[], message: string, code = 'invalid_type') =>
  void issues.push({ path, message, code });
const string: Check = (v, path, issues) => {
  if (typeof v !== 'string') issue(issues, path, `Invalid input: expected string, received ${kind(v)}`);
};
const number: Check = (v, path, issues) => {
  if (typeof v !== 'number') issue(issues, path, `Invalid input: expected number, received ${kind(v)}`);
};
const plainObject: Check = (v, path, issues) => {
  if (!isPlainObject(v)) issue(issues, path, 'Expected a plain object', 'custom');
};
const oneOf =
  (...values: string[]): Check =>
  (v, path, issues) => {
    if (!values.includes(v as string))
      issue(issues, path, `Invalid option: expected one of ${values.map((x) => `"${x}"`).join('|')}`, 'invalid_value');
  };
const anything: Check = () => {};
const shape =
  (fields: Record<string, [Check, 'optional'?]>): Check =>
  (v, path, issues) => {
    if (!isPlainObject(v)) return issue(issues, path, `Invalid input: expected object, received ${kind(v)}`);
    for (const [key, [check, optional]] of Object.entries(fields)) {
      const value = Object.hasOwn(v, key) ? v[key] : undefined;
      if (value === undefined && optional) continue;
      check(value, [...path, key], issues);
    }
  };
const listOf =
  (item: Check): Check =>
  (v, path, issues) => {
    if (!Array.isArray(v)) return issue(issues, path, `Invalid input: expected array, received ${kind(v)}`);
    v.forEach((x, i) => void item(x, [...path, i], issues));
  };

const optional = (check: Check): [Check, 'optional'] => [check, 'optional'];
const mediaData: Check = (v, path, issues) => {
  if (typeof v !== 'string') return issue(issues, path, `Invalid input: expected string, received ${kind(v)}`);
  const problem = mediaDataProblem(v);
  if (problem) issue(issues, path, `Invalid data: it ${problem}`, 'invalid_format');
};
const mediaType =
  (family = ''): Check =>
  (v, path, issues) => {
    if (typeof v !== 'string') return issue(issues, path, `Invalid input: expected string, received ${kind(v)}`);
    if (!MEDIA_TYPE.test(v))
      issue(
        issues,
        path,
        `Invalid media type '${v}': expected type/subtype in lower case, without parameters (image/png, say)`,
        'invalid_format',
      );
    else if (!v.startsWith(family))
      issue(issues, path, `Invalid media type '${v}' for an image: expected image/…`, 'invalid_format');
  };
const PARTS: Record<string, Record<string, [Check, 'optional'?]>> = {
  text: { type: [string], text: [string] },
  image: {
    type: [string],
    data: [mediaData],
    mediaType: optional(mediaType('image/')),
    filename: optional(string),
  },
  file: { type: [string], data: [mediaData], mediaType: [mediaType()], filename: optional(string) },
};
const part: Check = (v, path, issues) => {
  if (!isPlainObject(v)) return issue(issues, path, `Invalid input: expected object, received ${kind(v)}`);
  const fields = typeof v.type === 'string' && Object.hasOwn(PARTS, v.type) ? PARTS[v.type] : undefined;
  if (!fields)
    return issue(issues, [...path, 'type'], 'Invalid input: expected "text" | "image" | "file"', 'invalid_union');
  shape(fields)(v, path, issues);
};
/** A text, or a list of parts. */
const content: Check = (v, path, issues) => {
  if (typeof v === 'string') return;
  if (!Array.isArray(v)) return issue(issues, path, `Invalid input: expected string or array, received ${kind(v)}`);
  listOf(part)(v, path, issues);
};
const FIELDS: Record<Message['role'], Record<string, [Check, 'optional'?]>> = {
  system: { role: [string], content: [string], id: optional(string) },
  user: { role: [string], content: [content], id: optional(string) },
  assistant: {
    role: [string],
    content: [string],
    toolCalls: [listOf(shape({ id: [string], name: [string], args: [plainObject] }))],
    invalidToolCalls: [listOf(shape({ id: [string], name: optional(string), args: [string], error: [string] }))],
    stopReason: optional(oneOf('end', 'tool-calls', 'length', 'content-filter', 'other')),
    id: optional(string),
    reasoning: optional(string),
    usage: optional(
      shape({
        inputTokens: optional(number),
        outputTokens: optional(number),
        totalTokens: optional(number),
        cachedInputTokens: optional(number),
        cacheWriteTokens: optional(number),
        reasoningTokens: optional(number),
      }),
    ),
    metadata: optional(plainObject),
  },
  tool: {
    role: [string],
    toolCallId: [string],
    name: [string],
    content: [content],
    status: [oneOf('success', 'error')],
    artifact: optional(anything),
    id: optional(string),
  },
};

/** What is wrong with a value as a message's content (a text or a list of parts); empty when nothing is. */
export function contentIssues(value: unknown): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  content(value, [], issues);
  return issues;
}

/** What is wrong with a value as a message, with paths under `prefix`; empty when it is one. */
function messageIssues(value: unknown, prefix: (string | number)[] = []): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (!isPlainObject(value)) {
    issue(issues, prefix, `Invalid input: expected object, received ${kind(value)}`);
    return issues;
  }
  const role = value.role;
  const fields = typeof role === 'string' && Object.hasOwn(FIELDS, role) ? FIELDS[role as Message['role']] : undefined;
  if (!fields) {
    issue(
      issues,
      [...prefix, 'role'],
      'Invalid input: expected "system" | "user" | "assistant" | "tool"',
      'invalid_union',
    );
    return issues;
  }
  shape(fields)(value, prefix, issues);
  return issues;
}

/** The message's known fields only (unknown ones dropped, nested objects copied as they are). */
function knownFields(value: Record<string, unknown>): Message {
  const fields = FIELDS[value.role as Message['role']];
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(fields)) if (value[key] !== undefined) out[key] = value[key];
  if (Array.isArray(value.content)) out.content = value.content.map(partFields);
  if (value.role === 'assistant') {
    out.toolCalls = (value.toolCalls as Record<string, unknown>[]).map(({ id, name, args }) => ({ id, name, args }));
    out.invalidToolCalls = (value.invalidToolCalls as Record<string, unknown>[]).map(({ id, name, args, error }) =>
      name === undefined ? { id, args, error } : { id, name, args, error },
    );
  }
  return out as unknown as Message;
}

/** A part's known fields only. */
function partFields(value: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(PARTS[value.type as string] ?? {})) if (value[key] !== undefined) out[key] = value[key];
  return out;
}

function kind(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : value === undefined ? 'undefined' : typeof value;
}

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
    const issues = messageIssues(history[i], [i]);
    if (issues.length > 0) throw new MessageValidationError({ value: history[i], issues });
  }
  return history as readonly Message[];
}

/**
 * Read a message back from JSON data, checking its shape. Unknown fields are dropped.
 *
 * @example const r = safeMessageFromJSON(JSON.parse(text)); if (r.success) history.push(r.value)
 */
export function safeMessageFromJSON(value: unknown): SafeMessageFromJSON {
  const issues = messageIssues(value);
  if (issues.length === 0) return { success: true, value: knownFields(value as Record<string, unknown>) };
  return { success: false, error: new MessageValidationError({ value, issues }) };
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

/**
 * What is wrong with a tool's images and files (a result's `media`), or undefined. What a worker
 * sent is checked like any message (a hostile tool may send anything), and a URL is refused: the
 * page and the provider would fetch it, past the tool's network policy.
 */
export function mediaProblem(media: unknown): { path?: (string | number)[]; message: string } | undefined {
  if (!Array.isArray(media)) return { message: `not a list: ${describeValue(media)}` };
  const [issue] = contentIssues(media);
  if (issue) return issue;
  const parts = media as { type: string; data: string }[];
  if (parts.some((p) => p.type === 'text')) return { message: 'a text part' };
  if (parts.some((p) => isFetchedURL(p.data))) return { message: 'a URL, not the image itself' };
  return undefined;
}
