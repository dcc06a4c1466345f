// useChat in a real React 19 app (react-dom/client) in Chromium: a chat over a real agent with a
// scripted model and inline tools, driven through the DOM as a person would (vitest's userEvent).
import { type FormEvent, createElement as h, memo, StrictMode, useMemo } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import * as z from 'zod/mini';
import { defineTool } from '../../worker/define-tool';
import { createAgent } from '../agent/agent';
import { type Chat, createChat } from '../chat/create-chat';
import type { ChatOptions, UIMessage } from '../chat/types';
import { ToolInvoker } from '../invoker/tool-invoker';
import { aiMessage } from '../messages/constructors';
import { textOf } from '../messages/text-of';
import type { Message } from '../messages/types';
import { scriptedModel } from '../models/scripted-model';
import type { ChatModel } from '../models/types';
import { createMemoryCheckpointer } from '../store/checkpointer';
import { type ChatActions, useChat } from './use-chat';

const tools = [
  defineTool({
    name: 'multiply',
    description: 'Multiply two numbers.',
    input: z.object({ a: z.number(), b: z.number() }),
    run: ({ a, b }) => a * b,
  }),
  defineTool({
    name: 'delete_note',
    description: 'Delete a note.',
    input: z.object({ key: z.string() }),
    needsApproval: true,
    run: ({ key }) => `Deleted ${key}`,
  }),
];

/** Multiplies or deletes when asked to, says what the tools said, and echoes anything else. */
const answers = (options: { chunkSize?: number; delayMs?: number } = {}) =>
  scriptedModel((messages: readonly Message[]) => {
    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: `Done: ${textOf(last.content)}` };
    const text = last?.role === 'user' ? textOf(last.content) : '';
    if (text.startsWith('Delete')) return { toolCalls: [{ name: 'delete_note', args: { key: text.slice(7) } }] };
    if (text.startsWith('Multiply'))
      return { text: 'Computing.', toolCalls: [{ name: 'multiply', args: { a: 3, b: 12 } }] };
    if (text.startsWith('Long')) return { text: `${'word '.repeat(150)}end` };
    return { text: `You said: ${text}` };
  }, options);

/** A model that writes `text`, then waits until it is stopped (its signal goes into `aborted` then). */
function stalling(text: string, aborted: AbortSignal[] = []): ChatModel {
  return {
    provider: 'test',
    modelId: 'stalling',
    stream(request) {
      return {
        async *[Symbol.asyncIterator]() {
          yield { type: 'text-delta' as const, delta: text };
          await new Promise((_, reject) => {
            const signal = request.signal as AbortSignal;
            const stop = () => {
              aborted.push(signal);
              reject(signal.reason);
            };
            if (signal.aborted) stop();
            else signal.addEventListener('abort', stop);
          });
        },
        message: () => aiMessage(text),
      };
    },
  };
}

const agentWith = (model: ChatModel) =>
  createAgent({ model, invoker: new ToolInvoker({ inlineTools: tools }), checkpointer: createMemoryCheckpointer() });

/** Renders of each component, by name (a message's: by its id). */
let renders = new Map<string, number>();
const rendered = (name: string) => renders.set(name, (renders.get(name) ?? 0) + 1);

/** A message: memo, so it renders again only when the chat gives a new object for it. */
const MessageView = memo(function MessageView({
  message,
  waiting,
  approve,
}: {
  message: UIMessage;
  /** The calls waiting for a decision (the snapshot's pendingApprovals). */
  waiting: ReadonlySet<string>;
  approve: ChatActions['approve'];
}) {
  rendered(message.id);
  return h(
    'article',
    { className: message.role, 'data-id': message.id },
    message.parts.map((part, i) => {
      if (part.type === 'text') return h('p', { key: i }, part.text);
      if (part.type !== 'tool') return null;
      return h(
        'div',
        { key: part.toolCallId, className: 'tool', 'data-state': part.state },
        h('code', null, part.toolName),
        ` ${part.state}`,
        waiting.has(part.toolCallId) &&
          h('button', { type: 'button', onClick: () => void approve(part.toolCallId, true) }, 'Approve'),
        part.output !== undefined && h('output', null, part.output),
      );
    }),
    message.stopReason === 'aborted' && h('small', null, 'Stopped.'),
  );
});

/** The composer: memo, and given only `send`, so it renders once however long the chat streams. */
const Composer = memo(function Composer({ send }: { send: ChatActions['send'] }) {
  rendered('composer');
  return h(
    'form',
    {
      onSubmit: (event: FormEvent<HTMLFormElement>) => {
        event.preventDefault();
        const input = event.currentTarget.elements.namedItem('message') as HTMLInputElement;
        void send(input.value);
        input.value = '';
      },
    },
    h('input', { name: 'message', 'aria-label': 'Message' }),
    h('button', { type: 'submit' }, 'Send'),
  );
});

function Panel({ use }: { use: Chat | ChatOptions }) {
  rendered('panel');
  const { messages, status, error, pendingApprovals, send, stop, approve } = useChat(use);
  // Keyed by the ids, not the list: the chat gives a new empty list at each send and each run's
  // end, which would render every message again for nothing.
  const ids = pendingApprovals.map((call) => call.id).join(' ');
  const waiting = useMemo(() => new Set(ids.split(' ').filter(Boolean)), [ids]);
  return h(
    'section',
    { 'data-status': status },
    messages.map((message) => h(MessageView, { key: message.id, message, waiting, approve })),
    error && h('p', { role: 'alert' }, error.message),
    h(Composer, { send }),
    status === 'streaming' && h('button', { type: 'button', onClick: stop }, 'Stop'),
  );
}

let root: Root | undefined;
let host: HTMLElement;

function mount(use: Chat | ChatOptions, strict = true): void {
  renders = new Map();
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
  const panel = h(Panel, { use });
  root.render(strict ? h(StrictMode, null, panel) : panel);
}

function unmount(): void {
  root?.unmount();
  root = undefined;
}

afterEach(() => {
  unmount();
  host?.remove();
});

const $ = (selector: string) => host.querySelector<HTMLElement>(selector);
const texts = (selector: string) => [...host.querySelectorAll(selector)].map((e) => e.textContent);
const status = () => $('section')?.dataset.status;

async function say(text: string): Promise<void> {
  await vi.waitFor(() => expect($('input[name=message]')).not.toBeNull(), { timeout: 2_000 });
  await userEvent.fill($('input[name=message]') as HTMLElement, text);
  await userEvent.click($('button[type=submit]') as HTMLElement);
}

describe('useChat in a React app', () => {
  it('shows the message, then the answer as it streams, growing render by render', async () => {
    mount({ agent: agentWith(answers({ chunkSize: 8, delayMs: 2 })) });
    // What the answer showed at each change of the page.
    const seen: string[] = [];
    const watch = new MutationObserver(() => {
      const answer = $('article.assistant p')?.textContent;
      if (answer && answer !== seen.at(-1)) seen.push(answer);
    });
    watch.observe(host, { subtree: true, childList: true, characterData: true });
    await say('Long one');
    const full = `${'word '.repeat(150)}end`;
    await vi.waitFor(() => expect(texts('article.assistant p')).toEqual([full]), { timeout: 10_000 });
    watch.disconnect();
    expect(texts('article.user p')).toEqual(['Long one']);
    await vi.waitFor(() => expect(status()).not.toBe('streaming'), { timeout: 2_000 });
    // Streamed: the page showed the answer growing, each time a longer start of it.
    expect(seen.length).toBeGreaterThan(2);
    for (const [i, shown] of seen.entries()) {
      expect(full.startsWith(shown)).toBe(true);
      if (i > 0) expect(shown.length).toBeGreaterThan(seen[i - 1]?.length ?? 0);
    }
  });

  it('draws a tool call as a card through its states, to its output and the answer after it', async () => {
    mount({ agent: agentWith(answers()) });
    await say('Multiply 3 by 12');
    await vi.waitFor(() => expect(texts('article.assistant p')).toEqual(['Computing.', 'Done: 36']), {
      timeout: 5_000,
    });
    expect($('.tool code')?.textContent).toBe('multiply');
    expect($('.tool output')?.textContent).toBe('36');
  });

  it('waits for a person: the card asks, the click approves, the call runs and the answer follows', async () => {
    const chat = createChat({ agent: agentWith(answers()) });
    mount(chat);
    await say('Delete groceries');
    await vi.waitFor(() => expect($('.tool button')?.textContent).toBe('Approve'), { timeout: 5_000 });
    expect(status()).toBe('awaiting-approval');
    await userEvent.click($('.tool button') as HTMLElement);
    await vi.waitFor(() => expect(texts('article.assistant p')).toEqual(['Done: Deleted groceries']), {
      timeout: 5_000,
    });
    expect($('.tool output')?.textContent).toBe('Deleted groceries');
    expect($('.tool button')).toBeNull();
    expect(chat.getSnapshot().pendingApprovals).toEqual([]);
  });

  it('stops a run from its Stop button; the answer keeps what came', async () => {
    mount({ agent: agentWith(stalling('Thinking about it')) });
    await say('Hello');
    await vi.waitFor(() => expect(texts('article.assistant p')).toEqual(['Thinking about it']), { timeout: 5_000 });
    expect(status()).toBe('streaming');
    await userEvent.click($('section > button') as HTMLElement);
    await vi.waitFor(() => expect($('article.assistant small')?.textContent).toBe('Stopped.'), { timeout: 5_000 });
    expect(status()).not.toBe('streaming');
    expect($('article.assistant small')?.textContent).toBe('Stopped.');
    expect(texts('article.assistant p')).toEqual(['Thinking about it']);
    expect($('section > button')).toBeNull();
    expect($('[role=alert]')).toBeNull();
  });

  it('stops the run of a chat it made when the component unmounts, and leaves a chat it was given running', async () => {
    const aborted: AbortSignal[] = [];
    mount({ agent: agentWith(stalling('Working', aborted)) });
    await say('Hello');
    // The model has written, and waits.
    await vi.waitFor(() => expect(texts('article.assistant p')).toEqual(['Working']), { timeout: 5_000 });
    expect(aborted).toEqual([]);
    // The unmount's cleanup stops the run there and then.
    unmount();
    expect(aborted).toHaveLength(1);

    // A chat made outside may be shown again elsewhere: its run goes on.
    const chat = createChat({ agent: agentWith(stalling('Working', aborted)) });
    mount(chat);
    await say('Hello');
    await vi.waitFor(() => expect(texts('article.assistant p')).toEqual(['Working']), { timeout: 5_000 });
    unmount();
    expect(aborted).toHaveLength(1);
    expect(chat.getSnapshot().status).toBe('streaming');
    chat.stop();
    expect(aborted).toHaveLength(2);
  });

  it('renders once per change the chat announces, and what did not change does not render again', async () => {
    // The answer in pieces of 6 characters with a pause between each: it streams over many frames.
    const chat = createChat({ agent: agentWith(answers({ chunkSize: 6, delayMs: 1 })) });
    let announced = 0;
    chat.subscribe(() => announced++);
    mount(chat, false);
    await say('Hello');
    await vi.waitFor(() => expect(texts('article.assistant p')).toEqual(['You said: Hello']), { timeout: 5_000 });
    await vi.waitFor(() => expect(status()).not.toBe('streaming'), { timeout: 2_000 });
    const first = chat.getSnapshot().messages.map((m) => m.id);
    const settled = new Map(renders);
    announced = 0;

    await say('Long one');
    const full = `${'word '.repeat(150)}end`;
    await vi.waitFor(() => expect(texts('article.assistant p').at(-1)).toBe(full), { timeout: 15_000 });
    await vi.waitFor(() => expect(status()).not.toBe('streaming'), { timeout: 2_000 });
    const panel = (renders.get('panel') ?? 0) - (settled.get('panel') ?? 0);
    const pieces = Math.ceil(full.length / 6);
    // It streamed: the chat announced changes along the way (at most one a frame, its schedule).
    expect(announced).toBeGreaterThan(3);
    // The panel rendered once per change announced (and once for the submit): never once a piece.
    expect(panel).toBeLessThanOrEqual(announced + 1);
    expect(panel).toBeLessThan(pieces);
    // The earlier messages are the same objects: their memo'd views did not render again.
    for (const id of first) expect(renders.get(id)).toBe(settled.get(id));
    // `send` is the same function from render to render: the composer rendered once in all.
    expect(renders.get('composer')).toBe(1);
  });

  it('gives the same helpers object until the chat changes, follows another chat, and refuses to switch from a chat to options', async () => {
    const chat = createChat({ agent: agentWith(answers()) });
    const seen: unknown[] = [];
    function Probe({ use }: { use: Chat | ChatOptions }) {
      seen.push(useChat(use));
      return null;
    }
    const errors: unknown[] = [];
    host = document.createElement('div');
    root = createRoot(host, { onUncaughtError: (error) => void errors.push(error) });
    root.render(h(Probe, { use: chat }));
    await vi.waitFor(() => expect(seen).toHaveLength(1), { timeout: 2_000 });
    root.render(h(Probe, { use: chat }));
    await vi.waitFor(() => expect(seen).toHaveLength(2), { timeout: 2_000 });
    expect(seen[1]).toBe(seen[0]);
    // Another chat: its snapshot and its own actions.
    const other = createChat({ agent: agentWith(answers()) });
    root.render(h(Probe, { use: other }));
    await vi.waitFor(() => expect(seen).toHaveLength(3), { timeout: 2_000 });
    const helpers = seen[2] as ReturnType<typeof useChat>;
    expect(helpers.chat).toBe(other);
    expect(helpers.threadId).toBe(other.getSnapshot().threadId);
    expect(helpers.threadId).not.toBe(chat.getSnapshot().threadId);
    expect(helpers.send).not.toBe((seen[0] as ReturnType<typeof useChat>).send);
    root.render(h(Probe, { use: { agent: agentWith(answers()) } }));
    await vi.waitFor(() => expect(errors).toHaveLength(1), { timeout: 2_000 });
    expect(String(errors[0])).toMatch(/keeps to the first render's form/);
  });
});
