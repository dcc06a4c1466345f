import type { ToolChoice } from '../models/types';
import type { ToolSpec } from '../providers/tool-spec';
import type { Obj } from '../providers/wire';

/**
 * Tool calls for a model whose chat template has no tool syntax of its own: the tools are described
 * in the system prompt and the answer is held by a grammar (llama.cpp builds it from this JSON
 * Schema) to one object, either `{ "name": …, "arguments": {…} }` for a call or `{ "answer": "…" }`
 * for text when the model may choose. One call per turn.
 */
export function grammarSchema(tools: readonly ToolSpec[], choice: ToolChoice | undefined): Obj {
  const named = typeof choice === 'object' ? tools.filter((t) => t.name === choice.name) : tools;
  const calls = named.map((tool) => ({
    type: 'object',
    properties: { name: { const: tool.name }, arguments: tool.inputSchema },
    required: ['name', 'arguments'],
    additionalProperties: false,
  }));
  const answer = {
    type: 'object',
    properties: { answer: { type: 'string' } },
    required: ['answer'],
    additionalProperties: false,
  };
  const branches = choice === 'required' || typeof choice === 'object' ? calls : [...calls, answer];
  return branches.length === 1 ? (branches[0] as Obj) : { anyOf: branches };
}

/** What the system prompt says of the tools in grammar mode. */
export function grammarPrompt(tools: readonly ToolSpec[]): string {
  const list = tools
    .map((t) => JSON.stringify({ name: t.name, description: t.description, parameters: t.inputSchema }))
    .join('\n');
  return (
    `You can call these tools:\n${list}\n` +
    'To call one, answer {"name": <tool name>, "arguments": <its arguments>}. ' +
    'To reply to the user, answer {"answer": <your reply>}.'
  );
}

/** A streamed OpenAI Chat Completions delta (what `OpenAIChatDecoder` reads). */
export type ChatDelta = Record<string, unknown>;

const CALL_HEAD = /^\s*\{\s*"name"\s*:\s*("(?:[^"\\]|\\.)*")\s*,\s*"arguments"\s*:\s*/;
const ANSWER_HEAD = /^\s*\{\s*"answer"\s*:\s*"/;
/** Past this much text with neither head, the answer is not the grammar's shape. */
const UNDECIDED_LIMIT = 512;

/**
 * Reads the grammar's JSON as it streams and says it as a provider would: a call's name as soon
 * as it is known, then its arguments' text piece by piece (what follows `"arguments":`, less the
 * closing brace of the outer object), or an answer's text, unescaped as it comes.
 */
export class GrammarAnswerReader {
  #text = '';
  #mode: 'unknown' | 'call' | 'answer' | 'other' = 'unknown';
  #head = 0;
  #sent = 0;
  readonly #callId: string;

  constructor(callId: string) {
    this.#callId = callId;
  }

  /** Whether the answer was a tool call. */
  get isCall(): boolean {
    return this.#mode === 'call';
  }

  push(piece: string): ChatDelta[] {
    this.#text += piece;
    const out: ChatDelta[] = [];
    if (this.#mode === 'unknown') {
      const call = CALL_HEAD.exec(this.#text);
      const answer = call ? null : ANSWER_HEAD.exec(this.#text);
      if (call) {
        this.#mode = 'call';
        this.#head = call[0].length;
        const name = JSON.parse(call[1] as string) as string;
        out.push({
          tool_calls: [{ index: 0, id: this.#callId, type: 'function', function: { name, arguments: '' } }],
        });
      } else if (answer) {
        this.#mode = 'answer';
        this.#head = answer[0].length;
      } else if (this.#text.length > UNDECIDED_LIMIT) {
        this.#mode = 'other';
      }
    }
    if (this.#mode === 'call') {
      // Hold back a closing brace (and spaces) at the end: it may be the outer object's.
      const args = this.#text.slice(this.#head).replace(/\s*\}?\s*$/, '');
      if (args.length > this.#sent) {
        out.push({ tool_calls: [{ index: 0, function: { arguments: args.slice(this.#sent) } }] });
        this.#sent = args.length;
      }
    } else if (this.#mode === 'answer') {
      const text = unescapedPrefix(this.#text.slice(this.#head));
      if (text.length > this.#sent) {
        out.push({ content: text.slice(this.#sent) });
        this.#sent = text.length;
      }
    }
    return out;
  }

  /** The end of the answer: what is still held back, and whether it was a call. */
  finish(): ChatDelta[] {
    if (this.#mode === 'call') {
      const args = this.#text.slice(this.#head).replace(/\s*\}\s*$/, '');
      return args.length > this.#sent
        ? [{ tool_calls: [{ index: 0, function: { arguments: args.slice(this.#sent) } }] }]
        : [];
    }
    // Not the grammar's shape (the grammar was not applied, or generation stopped early): the
    // text as it came, so that nothing the model said is lost.
    if (this.#mode !== 'answer' && this.#text.length > 0) return [{ content: this.#text }];
    return [];
  }
}

/** The decoded text of a JSON string's body, up to its closing quote or to what is complete. */
function unescapedPrefix(body: string): string {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c === '"') break;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const next = body[i + 1];
    if (next === undefined) break;
    if (next === 'u') {
      const hex = body.slice(i + 2, i + 6);
      if (hex.length < 4) break;
      out += String.fromCharCode(Number.parseInt(hex, 16));
      i += 5;
      continue;
    }
    out += ESCAPES[next] ?? next;
    i++;
  }
  return out;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f' };
