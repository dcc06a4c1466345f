import { describeValue } from '../errors/moat-error';
import { checkCount } from '../errors/option-checks';
import { isPlainObject } from '../json/json-value';
import type { Message } from '../messages/types';
import { OpenAIChatDecoder } from '../stream/decoders/openai-chat-decoder';
import type { StreamPart } from '../stream/stream-part';
import { sleep } from './http';
import { modelStream } from './model-stream';
import { resolveRequest, withContextWindow } from './settings';
import type { ChatModel, ModelInfoOptions, ModelRequest } from './types';

/** One turn of a scripted model: text, tool calls, or both. */
export interface ScriptedTurn {
  text?: string;
  toolCalls?: { name: string; args: Record<string, unknown>; id?: string }[];
}

export interface ScriptedModelOptions extends ModelInfoOptions {
  /** Characters per streamed piece of text or argument JSON. Default 4. */
  chunkSize?: number;
  /** A pause between pieces, to watch it stream (demos). Default 0: no pause. */
  delayMs?: number;
  /** Reported as `modelId`. Default `'scripted'`. */
  name?: string;
}

/**
 * A deterministic model for tests, examples and offline demos: `respond(messages, request)`
 * returns the next turn, and the model streams it the way a provider does (OpenAI chunks with
 * ids, argument JSON in small pieces, a finish reason and usage), through the same decoder.
 *
 * @example
 * const model = scriptedModel((messages) =>
 *   messages.at(-1)?.role === 'tool' ? { text: 'It is 36.' } : { toolCalls: [{ name: 'multiply', args: { a: 3, b: 12 } }] },
 * );
 */
export function scriptedModel(
  respond: (messages: readonly Message[], request: ModelRequest) => ScriptedTurn | Promise<ScriptedTurn>,
  options: ScriptedModelOptions = {},
): ChatModel {
  if (typeof respond !== 'function')
    throw new TypeError(`scriptedModel takes a respond function, got ${describeValue(respond)}`);
  const chunkSize = checkCount('chunkSize', options.chunkSize ?? 4, { min: 1 });
  const delayMs = checkCount('delayMs', options.delayMs ?? 0);
  let turns = 0;
  // Ids unique beyond this instance: a conversation restored from a checkpoint keeps the ids of
  // its earlier calls, and a page reloaded makes a new model whose count starts again.
  const instance = Math.random().toString(36).slice(2, 8);
  return withContextWindow(
    {
      provider: 'scripted',
      modelId: options.name ?? 'scripted',
      stream(input) {
        const request = resolveRequest({}, input);
        return modelStream('scripted', request.signal, async (signal) => {
          const turn = await respond(request.messages, request);
          const chunks = chunksOf(checkTurn(turn), `scripted-${instance}-${++turns}`, chunkSize, request);
          const decoder = new OpenAIChatDecoder();
          async function* parts(): AsyncGenerator<StreamPart> {
            for (const chunk of chunks) {
              if (delayMs > 0) await sleep(delayMs, signal);
              signal.throwIfAborted();
              yield* decoder.push(chunk);
            }
            yield* decoder.flush();
          }
          return { [Symbol.asyncIterator]: () => parts(), message: () => decoder.finish() };
        });
      },
    },
    options,
  );
}

function checkTurn(turn: unknown): ScriptedTurn {
  if (!isPlainObject(turn)) throw new TypeError(`The scripted model's respond returned ${describeValue(turn)}`);
  const { text, toolCalls } = turn as ScriptedTurn;
  if (text !== undefined && typeof text !== 'string')
    throw new TypeError(`Expected a scripted turn's text to be a string, got ${describeValue(text)}`);
  if (
    toolCalls !== undefined &&
    !(Array.isArray(toolCalls) && toolCalls.every((c) => isPlainObject(c) && typeof c.name === 'string'))
  )
    throw new TypeError(
      `Expected a scripted turn's toolCalls to be a list of { name, args }, got ${describeValue(toolCalls)}`,
    );
  return turn as ScriptedTurn;
}

/** The turn as OpenAI Chat Completions chunks, pieces of `size` characters. */
function chunksOf(turn: ScriptedTurn, id: string, size: number, request: ModelRequest): Record<string, unknown>[] {
  const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
    id,
    object: 'chat.completion.chunk',
    choices: [{ index: 0, delta, finish_reason: finish }],
  });
  const chunks: Record<string, unknown>[] = [chunk({ role: 'assistant', content: '' })];
  for (const piece of pieces(turn.text ?? '', size)) chunks.push(chunk({ content: piece }));
  const calls = turn.toolCalls ?? [];
  calls.forEach((call, index) => {
    const callId = call.id ?? `${id}-call-${index}`;
    chunks.push(
      chunk({ tool_calls: [{ index, id: callId, type: 'function', function: { name: call.name, arguments: '' } }] }),
    );
    for (const piece of pieces(JSON.stringify(call.args ?? {}), size))
      chunks.push(chunk({ tool_calls: [{ index, function: { arguments: piece } }] }));
  });
  chunks.push(chunk({}, calls.length > 0 ? 'tool_calls' : 'stop'));
  const inputTokens = Math.ceil(JSON.stringify(request.messages).length / 4);
  const outputTokens = Math.ceil(((turn.text ?? '').length + JSON.stringify(calls).length) / 4);
  chunks.push({
    id,
    object: 'chat.completion.chunk',
    choices: [],
    usage: { prompt_tokens: inputTokens, completion_tokens: outputTokens, total_tokens: inputTokens + outputTokens },
  });
  return chunks;
}

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
  return out;
}
