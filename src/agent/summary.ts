/**
 * The exchanges a fitted request leaves out, summarized by a model the app names: the summary
 * goes with the system prompt, and is kept with the thread (a checkpoint's `metadata.summary`)
 * so that each exchange is summarized once, the summary growing as the window slides on.
 */
import { textOf } from '../messages/text-of';
import type { Message, Usage } from '../messages/types';
import type { ChatModel } from '../models/types';
import type { FittedContext } from './fit-context';

/** A summary of a thread's messages from its opening system messages up to `upTo` (not included). */
export interface ThreadSummaryNote {
  upTo: number;
  text: string;
}

/** What a request becomes with the summary: the system prompt carrying it, the messages after it. */
export interface Summarized {
  system: string;
  messages: Message[];
  /** The index the sent conversation starts at (the summary covers what is before). */
  from: number;
}

/** The largest transcript sent to the summarizer, in characters: its newest part is kept. */
const MAX_TRANSCRIPT = 200_000;

const PROMPT =
  'Summarize the earlier part of a conversation between a user and an assistant (with its tool calls), for the assistant to go on from. Keep the facts, names, numbers, decisions and open questions; leave out pleasantries. Answer with the summary only.';

/**
 * The request with what it left out summarized: `note`, when it already covers what was left
 * out, else a new one made by `model` from the old one and the exchanges left out since (at
 * most `maxTokens` long). `undefined` when nothing was left out before the kept exchanges.
 */
export async function summarize(
  thread: readonly Message[],
  fitted: FittedContext,
  options: {
    model: ChatModel;
    note: ThreadSummaryNote | undefined;
    system: string | undefined;
    maxTokens: number;
    signal: AbortSignal;
    /** Told the summary call's usage (it counts as a model call of the run). */
    onUsage: (usage: Usage | undefined, model: ChatModel) => void;
    /** Told the new note, to keep with the thread. */
    onNote: (note: ThreadSummaryNote) => void;
  },
): Promise<Summarized | undefined> {
  const { head, from } = fitted;
  if (from <= head) return undefined;
  let note = options.note;
  // A note covering more than was left out (the window grew): the request starts where it ends.
  let start = from;
  if (note && note.upTo > from) start = note.upTo;
  if (!note || note.upTo < from) {
    const since = note && note.upTo > head ? note.upTo : head;
    let transcript = (note ? `Summary so far:\n${note.text}\n\n` : '') + transcriptOf(thread.slice(since, from));
    if (transcript.length > MAX_TRANSCRIPT) transcript = transcript.slice(-MAX_TRANSCRIPT);
    const stream = options.model.stream({
      messages: [{ role: 'user', content: `${PROMPT}\n\n${transcript}` }],
      maxTokens: options.maxTokens,
      signal: options.signal,
    });
    for await (const _ of stream);
    const answer = stream.message();
    options.onUsage(answer.usage, options.model);
    note = { upTo: from, text: answer.content.trim() };
    options.onNote(note);
  }
  const kept = fitted.messages;
  // What is sent: the opening system messages, then the thread from `start` on as fitted.
  const system = `${options.system ? `${options.system}\n\n` : ''}Summary of the conversation so far:\n${note.text}`;
  const skip = start - from;
  return {
    system,
    messages: skip > 0 ? [...kept.slice(0, head), ...kept.slice(head + skip)] : kept,
    from: start,
  };
}

/** The messages as plain text for the summarizer: who said what, the calls and what they gave. */
function transcriptOf(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'user') lines.push(`User: ${textOf(m.content)}`);
    else if (m.role === 'system') lines.push(`System: ${m.content}`);
    else if (m.role === 'tool') lines.push(`Tool ${m.name} returned: ${textOf(m.content)}`);
    else {
      if (m.content) lines.push(`Assistant: ${m.content}`);
      for (const call of m.toolCalls) lines.push(`Assistant called ${call.name}(${JSON.stringify(call.args)})`);
    }
  }
  return lines.join('\n');
}
