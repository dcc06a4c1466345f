// createChat over a real agent in Node: a scripted model and inline tools.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import { defineTool } from '../../worker/define-tool';
import { createAgent } from '../agent/agent';
import type { AgentEvent } from '../agent/types';
import { ChatBusyError } from '../errors/chat-busy-error';
import { ModelStreamError } from '../errors/model-stream-error';
import { UnknownMediaTypeError } from '../errors/unknown-media-type-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import { aiMessage, userMessage } from '../messages/constructors';
import { textOf } from '../messages/text-of';
import type { Message, ToolMessage } from '../messages/types';
import { scriptedModel } from '../models/scripted-model';
import type { ChatModel } from '../models/types';
import { type Checkpointer, createMemoryCheckpointer } from '../store/checkpointer';
import type { Chat } from './create-chat';
import { createChat } from './create-chat';
import type { ChatAgent, ChatSnapshot, UIMessage, UIToolPart } from './types';

const ran: string[] = [];
const tools = [
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

const lastTool = (messages: readonly Message[]) => messages.at(-1) as ToolMessage | undefined;

/** Multiplies when asked to, deletes when asked to, and then says what the tools said. */
const model = () =>
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

const agentWith = (chatModel: ChatModel = model(), checkpointer: Checkpointer = createMemoryCheckpointer()) =>
  createAgent({ model: chatModel, invoker: new ToolInvoker({ inlineTools: tools }), checkpointer });

/** Every change heard at once: a snapshot per change, the worst case for sharing. */
const everyChange = (notify: () => void) => notify();

/** The first snapshot that passes `test` (the test's own timeout bounds the wait). */
function until(chat: Chat, test: (s: ChatSnapshot) => boolean): Promise<ChatSnapshot> {
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

const toolParts = (message: UIMessage | undefined) =>
  (message?.parts ?? []).filter((p): p is UIToolPart => p.type === 'tool');
const shape = (messages: readonly UIMessage[]) =>
  messages.map((m) =>
    m.parts.map((p) => (p.type === 'tool' ? `${p.name}:${p.state}` : `${p.type}:${'text' in p ? p.text : ''}`)),
  );

/** A model that writes `text`, then waits until it is stopped; later calls go to `then`. */
function stallingOnce(text: string, then: ChatModel): ChatModel {
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
function breakingAt(at: number, parts: number, inner: ChatModel): ChatModel {
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

describe('send', () => {
  it('shows the message at once, then the answer as it streams: text, a tool call with its output, text', async () => {
    const chat = createChat({ agent: agentWith(), schedule: everyChange });
    const seen: ChatSnapshot[] = [];
    chat.subscribe(() => seen.push(chat.getSnapshot()));
    const sending = chat.send('Multiply 3 by 12');
    await Promise.resolve();
    expect(shape(chat.getSnapshot().messages)).toEqual([['text:Multiply 3 by 12']]);
    await sending;
    const end = chat.getSnapshot();
    expect(end.status).toBe('ready');
    expect(end.error).toBeUndefined();
    expect(shape(end.messages)).toEqual([
      ['text:Multiply 3 by 12'],
      ['text:Computing.', 'multiply:output-available', 'text:Done: 36'],
    ]);
    expect(toolParts(end.messages[1])[0]).toMatchObject({ input: { a: 3, b: 12 }, output: '36' });
    expect(seen.some((s) => s.status === 'streaming')).toBe(true);
    // The states a call went through, as snapshots showed them.
    const states = seen.map((s) => toolParts(s.messages[1])[0]?.state).filter((s) => s !== undefined);
    expect([...new Set(states)]).toEqual(['input-streaming', 'input-available', 'running', 'output-available']);
    expect(seen.some((s) => toolParts(s.messages[1])[0]?.partialInput !== undefined)).toBe(true);
  });

  it('rejects what is not a message, and a second message while a run goes on, changing nothing', async () => {
    const chat = createChat({ agent: agentWith(stallingOnce('Thinking', model())), schedule: everyChange });
    await expect(chat.send('  ')).rejects.toThrow(TypeError);
    await expect(chat.send(42 as never)).rejects.toThrow('Expected a message to send, got `42` (number)');
    const first = chat.send('Hello');
    await until(chat, (s) => s.messages.length === 2);
    const before = chat.getSnapshot();
    const busy = chat.send('Another');
    await expect(busy).rejects.toThrow(ChatBusyError);
    await expect(busy).rejects.toThrow(/a run is under way in thread/);
    expect(chat.getSnapshot()).toBe(before);
    chat.stop();
    await first;
  });

  it('sends attachments with the message: the model gets them as parts, the chat shows them (named as their files), a reload too', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    const seeing = scriptedModel((messages) => {
      const last = messages.at(-1);
      const parts = last?.role === 'user' && typeof last.content !== 'string' ? last.content : [];
      const kinds = parts.map((p) => (p.type === 'text' ? 'text' : `${p.type} ${p.mediaType}`));
      return { text: `Saw ${kinds.join(', ')}` };
    });
    const checkpointer = createMemoryCheckpointer();
    const chat = createChat({ agent: agentWith(seeing, checkpointer), schedule: everyChange });
    const threadId = chat.getSnapshot().threadId;
    await chat.send('What are these?', {
      attachments: [
        new File([png], 'pixel.png', { type: 'image/png' }),
        new Blob([png]), // no type: its bytes say it is an image
        new File(['a,b\n1,2'], 'n.csv', { type: 'text/csv' }),
      ],
    });
    const shown = chat.getSnapshot().messages;
    const url = `data:image/png;base64,${Buffer.from(png).toString('base64')}`;
    expect(shown[0]?.parts).toEqual([
      { type: 'text', text: 'What are these?' },
      { type: 'image', url, mediaType: 'image/png', filename: 'pixel.png' },
      { type: 'image', url, mediaType: 'image/png' },
      { type: 'file', url: expect.stringMatching(/^data:text\/csv;base64,/), mediaType: 'text/csv', filename: 'n.csv' },
    ]);
    expect(shape(shown)[1]).toEqual(['text:Saw text, image image/png, image image/png, file text/csv']);
    // An image alone is a message too.
    await chat.send('', { attachments: [new Blob([png], { type: 'image/png' })] });
    expect(shape(chat.getSnapshot().messages)[3]).toEqual(['text:Saw image image/png']);
    // Opened again (a reload), the thread shows the same.
    const again = createChat({ agent: agentWith(seeing, checkpointer), threadId, schedule: everyChange });
    const reopened = await until(again, (s) => s.messages.length === 4);
    expect(reopened.messages[0]?.parts).toEqual(shown[0]?.parts);
  });

  it('while attachments are read the chat is busy, and a thread opened meanwhile does not get the message', async () => {
    const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
    // A file whose bytes come when the test says.
    let give = () => {};
    const slow = { type: 'image' as const, data: new Blob([png], { type: 'image/png' }) };
    const arrived = new Promise<void>((resolve) => {
      give = resolve;
    });
    const blob = slow.data;
    Object.defineProperty(blob, 'arrayBuffer', {
      value: async () => {
        await arrived;
        return png.buffer;
      },
    });
    const chat = createChat({ agent: agentWith(), schedule: everyChange });
    const first = chat.send('Look', { attachments: [slow] });
    await expect(chat.send('Overtaking')).rejects.toThrow(/attachments are being read/);
    const before = chat.getSnapshot().threadId;
    await chat.newThread();
    give();
    await expect(first).rejects.toThrow(/Another thread was opened while the attachments were read/);
    expect(chat.getSnapshot().threadId).not.toBe(before);
    expect(chat.getSnapshot().messages).toEqual([]);
    await chat.send('Now');
    expect(shape(chat.getSnapshot().messages)).toEqual([['text:Now'], ['text:You said: Now']]);
  });

  it('an attachment that cannot be read rejects the send with its typed error, changing nothing', async () => {
    const chat = createChat({ agent: agentWith(), schedule: everyChange });
    const before = chat.getSnapshot();
    const unknown = chat.send('What is this?', { attachments: [new Blob([new Uint8Array([1, 2, 3])])] });
    await expect(unknown).rejects.toThrow(UnknownMediaTypeError);
    await expect(chat.send('x', { attachments: 'a.png' as never })).rejects.toThrow(
      'Expected `attachments` to be a list',
    );
    await expect(chat.send('', { attachments: [] })).rejects.toThrow('Expected a message or an attachment to send');
    expect(chat.getSnapshot()).toBe(before);
    await chat.send('Still here');
    expect(shape(chat.getSnapshot().messages)).toEqual([['text:Still here'], ['text:You said: Still here']]);
  });

  it('checks its options', () => {
    expect(() => createChat({} as never)).toThrow('Expected `agent` to be an agent');
    expect(() => createChat({ agent: agentWith(), threadId: '' })).toThrow('Expected a thread id');
    expect(() => createChat({ agent: agentWith(), schedule: 1 as never })).toThrow(
      'Expected `schedule` to be a function',
    );
  });
});

describe('usage', () => {
  it("shows the run's usage step by step and the thread's totals, which a chat opening the thread again shows too", async () => {
    const checkpointer = createMemoryCheckpointer();
    const agent = createAgent({
      model: model(),
      invoker: new ToolInvoker({ inlineTools: tools }),
      checkpointer,
      prices: { scripted: { input: 1, output: 2 } },
    });
    const chat = createChat({ agent, schedule: everyChange });
    expect(chat.getSnapshot().usage.thread.steps).toBe(0);
    const afterStep = until(chat, (s) => s.usage.run.steps === 1);
    await chat.send('Multiply 3 by 12');
    const first = await afterStep;
    expect(first.usage.run.inputTokens).toBeGreaterThan(0);
    const done = chat.getSnapshot().usage;
    expect(done.run.steps).toBe(2);
    expect(done.thread).toEqual(done.run);
    expect(done.run.cost).toBeCloseTo((done.run.inputTokens + 2 * done.run.outputTokens) / 1e6, 12);
    await chat.send('Hello');
    const twice = chat.getSnapshot().usage;
    expect(twice.run.steps).toBe(1);
    expect(twice.thread.steps).toBe(3);
    expect(twice.thread.inputTokens).toBe(done.thread.inputTokens + twice.run.inputTokens);
    // Another chat (a reload) opening the thread shows the thread's totals, and no run yet.
    const again = createChat({ agent, threadId: chat.getSnapshot().threadId });
    await again.openThread(chat.getSnapshot().threadId);
    expect(again.getSnapshot().usage).toEqual({ run: expect.objectContaining({ steps: 0 }), thread: twice.thread });
  });
});

describe('usage with a summarizer', () => {
  it("counts the summarizer's calls in the run's usage, as the agent does: the run is what the thread grew by", async () => {
    const summarizer = scriptedModel(() => ({ text: `summary ${'of the facts '.repeat(20)}` }), { name: 'summarizer' });
    const agent = createAgent({
      model: scriptedModel(() => ({ text: 'ok '.repeat(30) }), { contextWindow: 600 }),
      summarizer,
      checkpointer: createMemoryCheckpointer(),
    });
    const chat = createChat({ agent, schedule: everyChange });
    let before = chat.getSnapshot().usage.thread;
    let summarized = 0;
    for (let i = 0; i < 12; i++) {
      await chat.send(`Turn ${i}: ${'tell me more about it '.repeat(8)}`);
      const { run, thread } = chat.getSnapshot().usage;
      expect(run.inputTokens).toBe(thread.inputTokens - before.inputTokens);
      expect(run.outputTokens).toBe(thread.outputTokens - before.outputTokens);
      expect(run.steps).toBe(thread.steps - before.steps);
      if ((thread.summaries ?? 0) > (before.summaries ?? 0)) summarized++;
      before = thread;
    }
    expect(summarized).toBeGreaterThan(0);
  });
});

describe('snapshots', () => {
  it('are the same object while nothing changes; subscribers hear once per schedule, until they unsubscribe', async () => {
    const frames: (() => void)[] = [];
    const chat = createChat({ agent: agentWith(), schedule: (notify) => frames.push(notify) });
    await chat.refreshThreads();
    const idle = chat.getSnapshot();
    expect(chat.getSnapshot()).toBe(idle);
    let heard = 0;
    const off = chat.subscribe(() => heard++);
    for (const frame of frames.splice(0)) frame();
    await chat.send('Multiply 3 by 12');
    // Many changes, one frame asked for while none was drawn.
    expect(frames.length).toBe(1);
    for (const frame of frames.splice(0)) frame();
    expect(heard).toBe(1);
    const end = chat.getSnapshot();
    expect(end).not.toBe(idle);
    expect(chat.getSnapshot()).toBe(end);
    off();
    await chat.send('Hi');
    for (const frame of frames.splice(0)) frame();
    expect(heard).toBe(1);
  });

  it('a 5,000-delta answer after 50 messages: the history is never copied, even with a snapshot per delta', async () => {
    const checkpointer = createMemoryCheckpointer();
    const history = Array.from({ length: 25 }, (_, i) => [
      userMessage(`Question ${i}`),
      aiMessage(`Answer ${i}`),
    ]).flat();
    await checkpointer.put('long', { id: 'step-1', threadId: 'long', createdAt: 1, messages: history, state: {} });
    const agent = agentWith(
      scriptedModel(() => ({ text: 'x'.repeat(5000) }), { chunkSize: 1 }),
      checkpointer,
    );
    let deltas = 0;
    const counting: ChatAgent = {
      stream: (input, options) => ({
        async *[Symbol.asyncIterator]() {
          for await (const event of agent.stream(input, options)) {
            if (event.type === 'text-delta') deltas++;
            yield event;
          }
        },
      }),
      thread: (id) => agent.thread(id),
      threads: () => agent.threads(),
      deleteThread: (id) => agent.deleteThread(id),
    };
    const chat = createChat({ agent: counting, threadId: 'long', schedule: everyChange });
    await chat.openThread('long');
    const before = chat.getSnapshot().messages;
    expect(before).toHaveLength(50);
    const snapshots: ChatSnapshot[] = [];
    chat.subscribe(() => snapshots.push(chat.getSnapshot()));
    await chat.send('Go');
    expect(deltas).toBe(5000);
    expect(snapshots.length).toBeGreaterThan(5000);
    // Counted: the distinct objects the 50 earlier messages ever were, over every snapshot.
    const seen = new Set<UIMessage>();
    for (const s of snapshots) for (const m of s.messages.slice(0, 50)) seen.add(m);
    expect(seen.size).toBe(50);
    expect([...seen].every((m, i) => m === before[i])).toBe(true);
    const answer = chat.getSnapshot().messages.at(-1);
    expect(answer?.parts).toEqual([{ type: 'text', text: 'x'.repeat(5000) }]);
  });

  it('the same answer with the default schedule: a handful of snapshots, not one per delta', async () => {
    const chat = createChat({ agent: agentWith(scriptedModel(() => ({ text: 'y'.repeat(5000) }), { chunkSize: 1 })) });
    let heard = 0;
    chat.subscribe(() => heard++);
    await chat.send('Go');
    await new Promise<void>((resolve) => setTimeout(resolve, 0)); // the notification's own macrotask
    expect(heard).toBeGreaterThan(0);
    expect(heard).toBeLessThan(50);
    expect(chat.getSnapshot().messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'y'.repeat(5000) }]);
  });
});

describe('approvals', () => {
  it('a call that needs approval waits; approved, it runs and the answer goes on', async () => {
    ran.length = 0;
    const chat = createChat({ agent: agentWith(), schedule: everyChange });
    await chat.send('Delete tea');
    const waiting = chat.getSnapshot();
    expect(waiting.status).toBe('awaiting-approval');
    expect(waiting.pendingApprovals.map((c) => c.args)).toEqual([{ key: 'tea' }]);
    expect(shape(waiting.messages)[1]).toEqual(['delete_note:approval-requested']);
    expect(ran).toEqual([]);
    const id = waiting.pendingApprovals[0]?.id as string;
    await chat.approve(id, true);
    const end = chat.getSnapshot();
    expect(ran).toEqual(['delete tea']);
    expect(end.status).toBe('ready');
    expect(end.pendingApprovals).toEqual([]);
    expect(shape(end.messages)).toEqual([
      ['text:Delete tea'],
      ['delete_note:output-available', 'text:Done: Deleted tea'],
    ]);
  });

  it('denied with a reason: the call is refused and the model is told why', async () => {
    ran.length = 0;
    const chat = createChat({ agent: agentWith(), schedule: everyChange });
    await chat.send('Delete tea');
    const id = chat.getSnapshot().pendingApprovals[0]?.id as string;
    await chat.approve(id, { approved: false, reason: 'keep it' });
    expect(ran).toEqual([]);
    const [part] = toolParts(chat.getSnapshot().messages[1]);
    expect(part).toMatchObject({
      state: 'output-denied',
      error: { kind: 'denied', message: 'Not approved: keep it.' },
    });
    expect(chat.getSnapshot().messages[1]?.parts.at(-1)).toMatchObject({
      type: 'text',
      text: expect.stringContaining('keep it'),
    });
  });

  it('refuses a decision on a call that does not wait, or a decision that is none, losing nothing', async () => {
    const chat = createChat({ agent: agentWith(), schedule: everyChange });
    await chat.send('Delete tea');
    const before = chat.getSnapshot();
    const id = before.pendingApprovals[0]?.id as string;
    await expect(chat.approve('nope', true)).rejects.toThrow(
      `No call waits for approval under \`'nope'\` (string): waiting are '${id}'`,
    );
    await expect(chat.approve(id, 'yes' as never)).rejects.toThrow(TypeError);
    expect(chat.getSnapshot()).toBe(before);
    await chat.approve(id, true);
    expect(chat.getSnapshot().status).toBe('ready');
  });

  it('two calls decided one after the other, the second while the first runs: both run, once each', async () => {
    ran.length = 0;
    const chat = createChat({ agent: agentWith(), schedule: everyChange });
    await chat.send('Delete tea and cake');
    const [tea, cake] = chat.getSnapshot().pendingApprovals;
    const first = chat.approve(tea?.id as string, true);
    const second = chat.approve(cake?.id as string, true);
    await Promise.all([first, second]);
    expect(ran.sort()).toEqual(['delete cake', 'delete tea']);
    const end = chat.getSnapshot();
    expect(end.status).toBe('ready');
    expect(shape(end.messages)[1]).toEqual([
      'delete_note:output-available',
      'delete_note:output-available',
      'text:Done: Deleted cake',
    ]);
  });

  it('calls waiting when the page closed wait again in a chat that opens the thread', async () => {
    ran.length = 0;
    const checkpointer = createMemoryCheckpointer();
    const before = createChat({ agent: agentWith(model(), checkpointer), schedule: everyChange });
    await before.send('Delete tea');
    const { threadId } = before.getSnapshot();
    // A reload: a new agent and a new chat over the same saved threads.
    const chat = createChat({ agent: agentWith(model(), checkpointer), threadId, schedule: everyChange });
    const opened = await until(chat, (s) => s.messages.length === 2);
    expect(opened.status).toBe('awaiting-approval');
    expect(shape(opened.messages)[1]).toEqual(['delete_note:approval-requested']);
    await chat.approve(opened.pendingApprovals[0]?.id as string, true);
    expect(ran).toEqual(['delete tea']);
    expect(shape(chat.getSnapshot().messages)[1]).toEqual(['delete_note:output-available', 'text:Done: Deleted tea']);
  });

  it('a new message instead of a decision refuses the waiting call', async () => {
    const chat = createChat({ agent: agentWith(), schedule: everyChange });
    await chat.send('Delete tea');
    await chat.send('Never mind');
    const end = chat.getSnapshot();
    expect(end.pendingApprovals).toEqual([]);
    expect(toolParts(end.messages[1])[0]?.state).toBe('output-denied');
    expect(end.messages.at(-1)?.parts).toEqual([{ type: 'text', text: 'You said: Never mind' }]);
  });
});

describe('stop and retry', () => {
  it('stop keeps what came and says the answer was stopped; retry sends the message again (nothing was saved)', async () => {
    const agent = agentWith(stallingOnce('Once upon a ', model()));
    const chat = createChat({ agent, schedule: everyChange });
    const sending = chat.send('Tell a story');
    await until(chat, (s) => s.messages[1]?.parts.length === 1);
    chat.stop();
    await sending;
    const stopped = chat.getSnapshot();
    expect(stopped.status).toBe('ready');
    expect(stopped.messages[1]).toMatchObject({
      parts: [{ type: 'text', text: 'Once upon a ' }],
      stopReason: 'aborted',
    });
    await chat.retry();
    const end = chat.getSnapshot();
    expect(shape(end.messages)).toEqual([['text:Tell a story'], ['text:You said: Tell a story']]);
    expect(end.messages[1]?.stopReason).toBe('end');
    // The thread holds the message once.
    const saved = await agent.thread(end.threadId);
    expect(saved?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    // Nothing left to retry.
    await chat.retry();
    expect(chat.getSnapshot()).toBe(end);
  });

  it('a failure keeps what streamed and says why; retry carries on from the saved step without running a tool twice', async () => {
    ran.length = 0;
    const agent = agentWith(breakingAt(2, 1, model()));
    const chat = createChat({ agent, schedule: everyChange });
    await chat.send('Multiply 3 by 12');
    const failed = chat.getSnapshot();
    expect(failed.status).toBe('error');
    expect(failed.error).toBeInstanceOf(ModelStreamError);
    expect(shape(failed.messages)[1]).toEqual(['text:Computing.', 'multiply:output-available', 'text:Done']);
    await chat.retry();
    const end = chat.getSnapshot();
    expect(end.status).toBe('ready');
    expect(end.error).toBeUndefined();
    expect(shape(end.messages)[1]).toEqual(['text:Computing.', 'multiply:output-available', 'text:Done: 36']);
    expect(ran).toEqual(['multiply 3 12']);
    expect((await agent.thread(end.threadId))?.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
  });

  it('a failure before anything was saved: retry sends the message once more', async () => {
    const agent = agentWith(breakingAt(1, 0, model()));
    const chat = createChat({ agent, schedule: everyChange });
    await chat.send('Hello');
    expect(chat.getSnapshot().status).toBe('error');
    expect(shape(chat.getSnapshot().messages)).toEqual([['text:Hello']]);
    await chat.retry();
    expect(shape(chat.getSnapshot().messages)).toEqual([['text:Hello'], ['text:You said: Hello']]);
    expect((await agent.thread(chat.getSnapshot().threadId))?.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
    ]);
  });
});

describe('threads', () => {
  afterEach(() => vi.restoreAllMocks());

  it('lists saved threads by their first message; opens, starts and deletes them', async () => {
    // Recency is as fine as the clock: two threads saved in one millisecond tie. A clock that
    // moves on each reading keeps this test from depending on the machine's speed.
    let clock = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => clock++);
    const agent = agentWith();
    const chat = createChat({ agent, schedule: everyChange });
    await chat.send('First thread\nwith two lines');
    const first = chat.getSnapshot().threadId;
    await chat.newThread();
    expect(chat.getSnapshot().messages).toEqual([]);
    expect(chat.getSnapshot().threadId).not.toBe(first);
    await chat.send('Second thread');
    const second = chat.getSnapshot().threadId;
    await until(chat, (s) => s.threads.length === 2);
    expect(chat.getSnapshot().threads.map((t) => [t.threadId, t.title])).toEqual([
      [second, 'Second thread'],
      [first, 'First thread'],
    ]);
    await chat.openThread(first);
    expect(chat.getSnapshot().threadId).toBe(first);
    expect(shape(chat.getSnapshot().messages)).toEqual([
      ['text:First thread\nwith two lines'],
      ['text:You said: First thread\nwith two lines'],
    ]);
    await chat.deleteThread(first);
    const after = chat.getSnapshot();
    expect(after.threadId).not.toBe(first);
    expect(after.messages).toEqual([]);
    expect(after.threads.map((t) => t.threadId)).toEqual([second]);
    await chat.openThread('never-saved');
    expect(chat.getSnapshot()).toMatchObject({ threadId: 'never-saved', messages: [], status: 'ready' });
  });

  it('opening another thread stops the run under way; nothing of it lands in the thread now shown', async () => {
    const checkpointer = createMemoryCheckpointer();
    const saved = [userMessage('Other'), aiMessage('You said: Other')];
    await checkpointer.put('other', { id: 'step-1', threadId: 'other', createdAt: 1, messages: saved, state: {} });
    const chat = createChat({
      agent: agentWith(stallingOnce('Long answer', model()), checkpointer),
      schedule: everyChange,
    });
    const other = 'other';
    const sending = chat.send('Tell a story');
    await until(chat, (s) => s.status === 'streaming' && s.messages.length === 2);
    await chat.openThread(other);
    await sending;
    const shown = chat.getSnapshot();
    expect(shown.threadId).toBe(other);
    expect(shown.status).toBe('ready');
    expect(shape(shown.messages)).toEqual([['text:Other'], ['text:You said: Other']]);
  });

  it('a thread that cannot be read is an error to retry; the thread shown before stays', async () => {
    const agent = agentWith();
    let broken = true;
    const flaky: ChatAgent = {
      stream: (input, options) => agent.stream(input, options),
      thread: async (id) => {
        if (broken) throw new Error('disk on fire');
        return agent.thread(id);
      },
      threads: () => agent.threads(),
      deleteThread: (id) => agent.deleteThread(id),
    };
    const chat = createChat({ agent: flaky, schedule: everyChange });
    await chat.openThread('t');
    expect(chat.getSnapshot()).toMatchObject({ status: 'error', error: { message: 'disk on fire' } });
    expect(chat.getSnapshot().threadId).not.toBe('t');
    broken = false;
    await chat.retry();
    expect(chat.getSnapshot()).toMatchObject({ status: 'ready', threadId: 't', error: undefined });
  });
});

describe('structured output (the agent events of issue #30, fed by hand)', () => {
  it('an output part streams and ends with the checked value', async () => {
    const partial: Record<string, unknown> = {};
    const events = [
      { type: 'text-delta', delta: '{"city":"Pa' },
      { type: 'output-delta', partial },
      { type: 'text-delta', delta: 'ris"}' },
      {
        type: 'finish',
        threadId: 't',
        text: '',
        messages: [],
        stopReason: 'end',
        usage: {},
        state: {},
        steps: 1,
        output: { city: 'Paris' },
      },
    ];
    const agent = agentWith();
    const seen: unknown[] = [];
    const chat = createChat({
      agent: {
        stream: () => ({
          async *[Symbol.asyncIterator]() {
            for (const event of events) {
              if (event.type === 'output-delta') partial.city = 'Pa';
              yield event as AgentEvent;
            }
          },
        }),
        thread: (id) => agent.thread(id),
        threads: () => agent.threads(),
        deleteThread: (id) => agent.deleteThread(id),
      },
      schedule: (notify) => {
        notify();
        seen.push(chat.getSnapshot().messages[1]?.parts);
      },
    });
    await chat.send('Where?');
    expect(seen).toContainEqual([{ type: 'output', value: { city: 'Pa' }, partial: true }]);
    expect(chat.getSnapshot().messages[1]?.parts).toEqual([
      { type: 'output', value: { city: 'Paris' }, partial: false },
    ]);
  });
});

describe('tool progress', () => {
  /** A tool that reports `n` times, and a model that calls it once and then says what it returned. */
  const counting = (n: number) =>
    createAgent({
      model: scriptedModel((messages) =>
        messages.at(-1)?.role === 'tool'
          ? { text: `Counted ${lastTool(messages)?.content}` }
          : { toolCalls: [{ name: 'count', args: { n } }] },
      ),
      invoker: new ToolInvoker({
        inlineTools: [
          defineTool({
            name: 'count',
            description: 'Count to n, reporting each step.',
            input: z.object({ n: z.number() }),
            async *run({ n }) {
              for (let i = 0; i < n; i++) yield { progress: i };
              return n;
            },
          }),
        ],
      }),
      checkpointer: createMemoryCheckpointer(),
    });

  it('a tool streaming 3,000 deltas: each is heard as it comes, and its part keeps the latest and the last 100', async () => {
    const chat = createChat({ agent: counting(3000), schedule: everyChange });
    const latest: unknown[] = [];
    let longest = 0;
    chat.subscribe(() => {
      const part = toolParts(chat.getSnapshot().messages.at(-1))[0];
      if (!part || part.progress.length === 0) return;
      longest = Math.max(longest, part.progress.length);
      if (part.state === 'running') latest.push((part.progress.at(-1) as { progress: number }).progress);
    });
    await chat.send('Count');
    expect(latest).toEqual(Array.from({ length: 3000 }, (_, i) => i));
    expect(longest).toBe(100);
    const [part] = toolParts(chat.getSnapshot().messages.at(-1));
    expect(part).toMatchObject({ state: 'output-available', output: '3000', progressDropped: 2900 });
    expect(part?.progress).toEqual(Array.from({ length: 100 }, (_, i) => ({ progress: 2900 + i })));
    expect(shape(chat.getSnapshot().messages).at(-1)).toEqual(['count:output-available', 'text:Counted 3000']);
  });

  it('what a part keeps is an option (maxProgressEntries, maxProgressChars), checked', async () => {
    const chat = createChat({ agent: counting(50), maxProgressEntries: 3 });
    await chat.send('Count');
    const [part] = toolParts(chat.getSnapshot().messages.at(-1));
    expect(part).toMatchObject({
      progress: [{ progress: 47 }, { progress: 48 }, { progress: 49 }],
      progressDropped: 47,
    });
    const sized = createChat({ agent: counting(50), maxProgressChars: 0 });
    await sized.send('Count');
    expect(toolParts(sized.getSnapshot().messages.at(-1))[0]?.progress).toEqual([{ progress: 49 }]);
    expect(() => createChat({ agent: agentWith(), maxProgressEntries: 0 })).toThrow(
      'Expected `maxProgressEntries` to be a positive integer, got `0` (number)',
    );
    expect(() => createChat({ agent: agentWith(), maxProgressChars: -1 })).toThrow(
      'Expected `maxProgressChars` to be a non-negative integer, got `-1` (number)',
    );
    expect(() => createChat({ agent: agentWith(), maxProgressChars: '1e6' as never })).toThrow(TypeError);
  });
});
