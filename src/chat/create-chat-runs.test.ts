// createChat over a real agent in Node: stop and retry, threads, structured output, tool progress.
import { afterEach, describe, expect, it, vi } from 'vitest';
import * as z from 'zod/mini';
import {
  agentWith,
  breakingAt,
  everyChange,
  finishEvent,
  lastTool,
  model,
  ran,
  shape,
  stallingOnce,
  toolParts,
  until,
} from '../../test/chat-helpers';
import { defineTool } from '../../worker/define-tool';
import { createAgent } from '../agent/agent';
import type { AgentEvent } from '../agent/types';
import { ModelStreamError } from '../errors/model-stream-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import { aiMessage, userMessage } from '../messages/constructors';
import { scriptedModel } from '../models/scripted-model';
import { createMemoryCheckpointer } from '../store/checkpointer';
import { createChat } from './create-chat';
import type { ChatAgent } from './types';

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
      finishEvent({ threadId: 't', output: { city: 'Paris' } }),
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
