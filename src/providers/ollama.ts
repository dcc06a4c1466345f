/**
 * Ollama's native chat API (`/api/chat`, NDJSON when streaming): a response → `AIMessage`,
 * history → `messages`. (Ollama's OpenAI-compatible `/v1` endpoint uses `openai-chat`.)
 */
import { checkMessages } from '../messages/message-json';
import type { AIMessage, Message, StopReason, Usage } from '../messages/types';
import { type ToolSpec, validateToolSpecs } from './tool-spec';
import { arr, CallCollector, compact, num, type Obj, obj, str } from './wire';

/** Ollama `done_reason` → `StopReason`. */
export function ollamaStopReason(reason: unknown, hasToolCalls: boolean): StopReason | undefined {
  if (reason === undefined || reason === null) return undefined;
  if (hasToolCalls) return 'tool-calls';
  return reason === 'stop' ? 'end' : reason === 'length' ? 'length' : 'other';
}

/** Ollama's counters → `Usage`. */
export function ollamaUsage(raw: Obj): Usage | undefined {
  const input = num(raw.prompt_eval_count);
  const output = num(raw.eval_count);
  return compact<Usage>({
    inputTokens: input,
    outputTokens: output,
    totalTokens: input !== undefined && output !== undefined ? input + output : undefined,
  });
}

/**
 * An Ollama chat response (or its `message`) as an `AIMessage`. Ollama sends each call whole,
 * with object `arguments` and usually no id: ids are synthesized, unique within the message.
 *
 * @example const ai = fromOllama(await response.json())
 */
export function fromOllama(response: unknown): AIMessage {
  const r = obj(response);
  const m = r.message !== undefined ? obj(r.message) : r;
  const calls = new CallCollector();
  for (const raw of arr(m.tool_calls)) {
    const c = obj(raw);
    const fn = obj(c.function);
    calls.fromText(str(c.id), str(fn.name), fn.arguments);
  }
  const model = str(r.model);
  return calls.message({
    content: str(m.content) ?? '',
    stopReason: ollamaStopReason(r.done_reason, calls.any),
    reasoning: str(m.thinking),
    usage: ollamaUsage(r),
    metadata: model ? { ollama: { model } } : undefined,
  });
}

/**
 * The history as Ollama `messages`: calls with object arguments, results as `tool` messages
 * naming their tool (`tool_name`).
 *
 * @example body.messages = toOllama(history)
 */
export function toOllama(history: readonly Message[]): Obj[] {
  return checkMessages(history).map(toOllamaMessage);
}

function toOllamaMessage(m: Message): Obj {
  switch (m.role) {
    case 'system':
    case 'user':
      return { role: m.role, content: m.content };
    case 'tool':
      return { role: 'tool', content: m.content, tool_name: m.name };
    case 'assistant': {
      const out: Obj = { role: 'assistant', content: m.content };
      const calls = [
        ...m.toolCalls.map((c) => ({ function: { name: c.name, arguments: c.args } })),
        ...m.invalidToolCalls.map((c) => ({ function: { name: c.name ?? 'unknown', arguments: {} } })),
      ];
      if (calls.length > 0) out.tool_calls = calls;
      return out;
    }
  }
}

/**
 * Tool specs as Ollama `tools` (the OpenAI function shape).
 *
 * @example body.tools = toOllamaTools(await pool.specs())
 */
export function toOllamaTools(specs: readonly ToolSpec[]): Obj[] {
  return validateToolSpecs(specs).map((spec) => ({
    type: 'function',
    function: { name: spec.name, description: spec.description, parameters: spec.inputSchema },
  }));
}
