/**
 * What of a thread is sent to a model with a context window: the newest messages that fit, cut
 * only where the thread can be cut. Without a tokenizer the count is an estimate (see
 * `estimateTokens`), multiplied by what the provider's own counts taught (`calibration`).
 */
import type { ContentPart, Message } from '../messages/types';
import type { ToolSpec } from '../providers/tool-spec';

/** What was sent of a thread: `[start, end)` ranges of its messages, oldest first. */
export type SentRanges = [number, number][];

export interface FitOptions {
  /** The model's context window, in tokens. */
  window: number;
  /** Tokens kept free for the answer. */
  reserve: number;
  system?: string | undefined;
  tools?: readonly ToolSpec[] | undefined;
  /** Provider tokens per estimated token (1: the estimate as it is). */
  calibration?: number;
}

export interface FittedContext {
  messages: Message[];
  /** Which of the thread's messages these are. */
  ranges: SentRanges;
  /** The request's estimated size in provider tokens (calibrated), system and tools included. */
  tokens: number;
  /** How many of the thread's messages were left out. */
  dropped: number;
  /**
   * Where what is sent of the conversation begins, after the opening system messages: the
   * messages from `head` to `from` (whole exchanges) were left out.
   */
  head: number;
  from: number;
}

/** An image counts as this many tokens whatever its size (Anthropic's largest is about 1,600). */
const IMAGE_TOKENS = 1_600;
/** What a message costs beyond its text (role, separators), in tokens. */
const MESSAGE_TOKENS = 4;

const costs = new WeakMap<object, number>();

/**
 * A message's size in tokens, estimated: characters / 4 (a rough mean for English and code under
 * the common BPE tokenizers; other scripts can take more tokens per character, which is what
 * `calibration` corrects), an image as 1,600 tokens, a file as its bytes / 4. Kept per message
 * object: a thread's messages are not changed in place, so each is counted once.
 */
export function estimateTokens(message: Message): number {
  const known = costs.get(message);
  if (known !== undefined) return known;
  let chars = 0;
  let fixed = MESSAGE_TOKENS;
  const content = message.content;
  if (typeof content === 'string') chars += content.length;
  else for (const part of content as ContentPart[]) fixed += partTokens(part, (n) => (chars += n));
  if (message.role === 'assistant') {
    for (const call of message.toolCalls) chars += call.name.length + JSON.stringify(call.args).length + 8;
    for (const bad of message.invalidToolCalls) chars += (bad.name?.length ?? 0) + bad.args.length + 8;
    if (message.reasoning) chars += message.reasoning.length;
  } else if (message.role === 'tool') chars += message.name.length + message.toolCallId.length;
  const tokens = fixed + Math.ceil(chars / 4);
  costs.set(message, tokens);
  return tokens;
}

function partTokens(part: ContentPart, addChars: (n: number) => void): number {
  if (part.type === 'text') addChars(part.text.length);
  else if (part.type === 'image') return IMAGE_TOKENS;
  // base64: 4 characters for 3 bytes.
  else if (part.type === 'file') addChars((part.data.length * 3) / 4);
  return 0;
}

/** The tools' specs as the model reads them, estimated the same way (kept per list). */
export function estimateToolTokens(tools: readonly ToolSpec[] | undefined): number {
  if (!tools || tools.length === 0) return 0;
  const known = costs.get(tools);
  if (known !== undefined) return known;
  const tokens = Math.ceil(JSON.stringify(tools).length / 4);
  costs.set(tools, tokens);
  return tokens;
}

/**
 * The newest part of `messages` that fits `window - reserve` tokens, with the system prompt and
 * the tools counted first. Always kept: the system messages that open the thread and the latest
 * user message. A model's message is kept with all its tool results or not at all (so no result
 * is sent without its call, nor a call without its result), and a cut before the latest user
 * message falls on a user message (a request never opens with the model's turn or a result).
 * After the latest user message, the newest steps are kept, the model's newest step at least;
 * before it, whole exchanges (a user message and all that answered it), newest first, while they
 * fit. The work is linear in the messages kept: the thread is walked from its end and the walk
 * stops at the first exchange that does not fit.
 *
 * @example
 * const { messages, ranges } = fitContext(thread.messages, { window: 8_192, reserve: 1_024, system, tools });
 */
export function fitContext(messages: readonly Message[], options: FitOptions): FittedContext {
  const scale = options.calibration ?? 1;
  const cost = (m: Message) => estimateTokens(m) * scale;
  let head = 0;
  let used = (Math.ceil((options.system?.length ?? 0) / 4) + estimateToolTokens(options.tools)) * scale;
  while (head < messages.length && messages[head]?.role === 'system') used += cost(messages[head++] as Message);
  const room = options.window - options.reserve;
  const end = messages.length;
  let lastUser = end - 1;
  while (lastUser >= head && messages[lastUser]?.role !== 'user') lastUser--;
  // The latest user message is sent whatever it costs.
  if (lastUser >= head) used += cost(messages[lastUser] as Message);
  // After it: the model's steps, each its answer and the results after it.
  const floor = Math.max(lastUser, head - 1);
  let tail = end;
  let step = 0;
  for (let i = end - 1; i > floor; i--) {
    step += cost(messages[i] as Message);
    if (messages[i]?.role !== 'assistant' && i - 1 > floor) continue;
    // The newest step is kept even if it does not fit: the model needs its results to go on.
    if (tail < end && used + step > room) break;
    used += step;
    step = 0;
    tail = i;
  }
  const ranges: SentRanges = head > 0 ? [[0, head]] : [];
  if (lastUser < head) {
    ranges.push([tail, end]);
    return done(messages, ranges, used, head, tail);
  }
  let start = lastUser;
  // Before it, only when all after it went: whole exchanges, newest first.
  if (tail === lastUser + 1) {
    let exchange = 0;
    let i = lastUser - 1;
    for (; i >= head; i--) {
      exchange += cost(messages[i] as Message);
      if (messages[i]?.role !== 'user') continue;
      if (used + exchange > room) break;
      used += exchange;
      exchange = 0;
      start = i;
    }
    // What came before the first user message (a greeting), when all the rest went too.
    if (i < head && exchange > 0 && used + exchange <= room) {
      used += exchange;
      start = head;
    }
    ranges.push([start, end]);
  } else ranges.push([start, lastUser + 1], [tail, end]);
  return done(messages, ranges, used, head, start);
}

function done(
  messages: readonly Message[],
  ranges: SentRanges,
  used: number,
  head: number,
  from: number,
): FittedContext {
  const merged = merge(ranges);
  const whole = merged.length === 1 && merged[0]?.[0] === 0 && merged[0][1] === messages.length;
  const out = whole ? [...messages] : merged.flatMap(([a, b]) => messages.slice(a, b));
  const dropped = messages.length - out.length;
  return { messages: out, ranges: merged, tokens: Math.ceil(used), dropped, head, from };
}

function merge(ranges: SentRanges): SentRanges {
  const out: SentRanges = [];
  for (const range of ranges) {
    const last = out.at(-1);
    if (last && last[1] === range[0]) last[1] = range[1];
    else if (range[0] < range[1]) out.push(range);
  }
  return out;
}
