// createChat's tests' shared parts: a scripted model and inline tools, a real agent over them.
import * as z from 'zod/mini';
import { createAgent } from '../src/agent/agent';
import type { AgentEvent } from '../src/agent/types';
import type { Chat } from '../src/chat/create-chat';
import type { ChatSnapshot, UIMessage, UIToolPart } from '../src/chat/types';
import { ModelStreamError } from '../src/errors/model-stream-error';
import { ToolInvoker } from '../src/invoker/tool-invoker';
import { aiMessage } from '../src/messages/constructors';
import { textOf } from '../src/messages/text-of';
import type { Message, ToolMessage } from '../src/messages/types';
import { scriptedModel } from '../src/models/scripted-model';
import type { ChatModel } from '../src/models/types';
import { type Checkpointer, createMemoryCheckpointer } from '../src/store/checkpointer';
import { defineTool } from '../worker/define-tool';

export const ran: string[] = [];
export const tools = [
  defineTool({
    name: 'multiply',
    description: 'Multiply two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => {
      ran.push(`multiply ${a} ${b}`);
      return a * b;
    },
  }),
  defineTool({
    name: 'delete_note',
    description: 'Delete a note.',
    input: z.object({ key: z.string() }),
    needsApproval: true,
    run: ({ key }) => {
      ran.push(`delete ${key}`);
      return `Deleted ${key}`;
    },
  }),
];

export const lastTool = (messages: readonly Message[]) => messages.at(-1) as ToolMessage | undefined;

/** Multiplies when asked to, deletes when asked to, and then says what the tools said. */
export const model = () =>
  scriptedModel((messages) => {
    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: `Done: ${lastTool(messages)?.content}` };
    const text = last?.role === 'user' ? textOf(last.content) : '';
    if (text.startsWith('Delete')) {
      const keys = text.slice(7).split(' and ');
      return { toolCalls: keys.map((key) => ({ name: 'delete_note', args: { key } })) };
    }
    if (text.startsWith('Multiply'))
      return { text: 'Computing.', toolCalls: [{ name: 'multiply', args: { a: 3, b: 12 } }] };
    return { text: `You said: ${text}` };
  });

export const agentWith = (chatModel: ChatModel = model(), checkpointer: Checkpointer = createMemoryCheckpointer()) =>
  createAgent({ model: chatModel, invoker: new ToolInvoker({ inlineTools: tools }), checkpointer });

/** Every change heard at once: a snapshot per change, the worst case for sharing. */
export const everyChange = (notify: () => void) => notify();

/** The first snapshot that passes `test` (the test's own timeout bounds the wait). */
export function until(chat: Chat, test: (s: ChatSnapshot) => boolean): Promise<ChatSnapshot> {
  return new Promise((resolve) => {
    const check = () => {
      const snapshot = chat.getSnapshot();
      if (!test(snapshot)) return;
      off();
      resolve(snapshot);
    };
    const off = chat.subscribe(check);
    check();
  });
}

/** An agent's `finish` event with nothing in it, and `extra`: for agents fed by hand. */
export const finishEvent = (extra: Partial<Extract<AgentEvent, { type: 'finish' }>> = {}): AgentEvent => ({
  type: 'finish',
  totals: { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0, steps: 0 },
  threadId: 't1',
  text: '',
  messages: [],
  stopReason: 'end',
  usage: {},
  state: {},
  steps: 1,
  ...extra,
});

export const toolParts = (message: UIMessage | undefined) =>
  (message?.parts ?? []).filter((p): p is UIToolPart => p.type === 'tool');
export const shape = (messages: readonly UIMessage[]) =>
  messages.map((m) =>
    m.parts.map((p) => (p.type === 'tool' ? `${p.toolName}:${p.state}` : `${p.type}:${'text' in p ? p.text : ''}`)),
  );

/** A model that writes `text`, then waits until it is stopped; later calls go to `then`. */
export function stallingOnce(text: string, then: ChatModel): ChatModel {
  let calls = 0;
  return {
    provider: 'test',
    modelId: 'stalling',
    stream(request) {
      if (calls++ > 0) return then.stream(request);
      return {
        async *[Symbol.asyncIterator]() {
          yield { type: 'text-delta' as const, delta: text };
          await new Promise((_, reject) =>
            request.signal?.addEventListener('abort', () => reject(request.signal?.reason)),
          );
        },
        message: () => aiMessage(text),
      };
    },
  };
}

/** `inner`, except that its call number `at` breaks off after `parts` parts. */
export function breakingAt(at: number, parts: number, inner: ChatModel): ChatModel {
  let calls = 0;
  return {
    provider: 'test',
    modelId: 'breaking',
    stream(request) {
      const stream = inner.stream(request);
      if (++calls !== at) return stream;
      return {
        async *[Symbol.asyncIterator]() {
          let n = 0;
          for await (const part of stream) {
            if (n++ === parts) throw new ModelStreamError({ provider: 'test', reason: 'broken', detail: 'cut off' });
            yield part;
          }
        },
        message: () => stream.message(),
      };
    },
  };
}
