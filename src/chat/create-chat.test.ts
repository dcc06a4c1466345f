// createChat over a real agent in Node: sending, usage, snapshots, approvals (create-chat-runs.test.ts: the rest).
import { describe, expect, it } from 'vitest';
import {
  agentWith,
  everyChange,
  model,
  ran,
  shape,
  stallingOnce,
  toolParts,
  tools,
  until,
} from '../../test/chat-helpers';
import { createAgent } from '../agent/agent';
import { ChatBusyError } from '../errors/chat-busy-error';
import { UnknownMediaTypeError } from '../errors/unknown-media-type-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import { aiMessage, userMessage } from '../messages/constructors';
import { scriptedModel } from '../models/scripted-model';
import { createMemoryCheckpointer } from '../store/checkpointer';
import { createChat } from './create-chat';
import type { ChatAgent, ChatSnapshot, UIMessage } from './types';

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
