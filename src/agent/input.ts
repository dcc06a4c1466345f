import { describeValue } from '../errors/moat-error';
import { checkSignal } from '../errors/option-checks';
import { isPlainObject } from '../json/json-value';
import { userMessage } from '../messages/constructors';
import { checkMessages } from '../messages/message-json';
import { type ContentPartInput, toContent } from '../messages/to-content-part';
import type { Message } from '../messages/types';
import { checkOutputSchema } from '../output/output-schema';
import type { AgentInput, AgentStreamOptions, ApprovalDecision } from './types';

export type ParsedInput = { messages: Message[] } | { approvals: Map<string, { approved: boolean; reason?: string }> };

/**
 * What a run was given, read: a list of parts (text, images, files) becomes one user message, its
 * `File`s, `Blob`s and bytes read into base64 (`toContent`); anything else as `parseInput` says.
 */
export async function readInput(input: AgentInput): Promise<ParsedInput> {
  if (isPartList(input)) return { messages: [userMessage(await toContent(input))] };
  return parseInput(input);
}

/** A non-empty list whose entries are all parts (`{ type }`), none a message (`{ role }`). */
function isPartList(input: unknown): input is readonly ContentPartInput[] {
  if (!Array.isArray(input) || input.length === 0) return false;
  const parts = input.filter((x) => isPlainObject(x) && 'type' in x && !('role' in x)).length;
  if (parts === 0) return false;
  if (parts < input.length)
    throw new TypeError(
      `An agent takes a list of messages ({ role }) or a list of parts ({ type }), each entry one of them: got ${describeValue(input)}`,
    );
  return true;
}

/** What a run was given, checked: a `TypeError` (or `MessageValidationError`) says what is wrong. */
export function parseInput(input: AgentInput): ParsedInput {
  if (typeof input === 'string') return { messages: [userMessage(input)] };
  if (isPartList(input))
    throw new TypeError('A list of parts is read with readInput (its files are read asynchronously)');
  if (Array.isArray(input)) return { messages: [...checkMessages(input)] };
  if (isPlainObject(input) && 'approvals' in input) return { approvals: parseApprovals(input.approvals) };
  if (isPlainObject(input) && 'role' in input) return { messages: [...checkMessages([input])] };
  throw new TypeError(
    `An agent takes a user's text, a list of parts, a message, a list of messages or { approvals }, got ${describeValue(input)}`,
  );
}

function parseApprovals(value: unknown): Map<string, { approved: boolean; reason?: string }> {
  if (!isPlainObject(value))
    throw new TypeError(`Expected \`approvals\` to map call ids to decisions, got ${describeValue(value)}`);
  const out = new Map<string, { approved: boolean; reason?: string }>();
  for (const [id, decision] of Object.entries(value as Record<string, ApprovalDecision>)) {
    if (decision === true) out.set(id, { approved: true });
    else if (
      isPlainObject(decision) &&
      typeof decision.approved === 'boolean' &&
      (!('reason' in decision) || decision.reason === undefined || typeof decision.reason === 'string')
    ) {
      const reason = 'reason' in decision ? decision.reason : undefined;
      out.set(id, reason === undefined ? { approved: decision.approved } : { approved: decision.approved, reason });
    } else
      throw new TypeError(
        `Expected the decision on call '${id}' to be true or { approved, reason? }, got ${describeValue(decision)}`,
      );
  }
  return out;
}

/** Throws a `TypeError` naming the first option of a run that is wrong. */
export function checkStreamOptions(options: AgentStreamOptions): void {
  if (!isPlainObject(options))
    throw new TypeError(`Expected run options to be an object, got ${describeValue(options)}`);
  if (options.threadId !== undefined && (typeof options.threadId !== 'string' || options.threadId === ''))
    throw new TypeError(`Expected \`threadId\` to be a non-empty string, got ${describeValue(options.threadId)}`);
  checkSignal(options.signal);
  if (options.state !== undefined && !isPlainObject(options.state))
    throw new TypeError(`Expected \`state\` to be a plain object, got ${describeValue(options.state)}`);
  if (options.ifBusy !== undefined && options.ifBusy !== 'wait' && options.ifBusy !== 'fail')
    throw new TypeError(`Expected \`ifBusy\` to be 'wait' or 'fail', got ${describeValue(options.ifBusy)}`);
  if (options.output !== undefined) checkOutputSchema(options.output);
  if (options.save !== undefined && typeof options.save !== 'boolean')
    throw new TypeError(`Expected \`save\` to be a boolean, got ${describeValue(options.save)}`);
}

/** A new thread's id. */
export function newThreadId(): string {
  return `thread-${pageId}-${(++threadCount).toString(36)}`;
}

/** Random once per page load (a UUID costs microseconds to draw); a counter after it makes each id new. */
const pageId =
  globalThis.crypto?.randomUUID?.() ?? `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 12)}`;
let threadCount = 0;
