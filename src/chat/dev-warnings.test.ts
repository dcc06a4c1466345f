// What a chat tells the developer: a thread lost for want of a checkpointer (an error the UI
// sees too), a crashed tool and a misconfiguration in the console; nothing in a production build.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { finishEvent, until } from '../../test/chat-helpers';
import { createAgent } from '../agent/agent';
import type { AgentEvent } from '../agent/types';
import { ModelHTTPError } from '../errors/model-http-error';
import { PoolQueueFullError } from '../errors/pool-queue-full-error';
import { ThreadNotFoundError } from '../errors/thread-not-found-error';
import { WorkerCrashedError } from '../errors/worker-crashed-error';
import { WorkerStartError } from '../errors/worker-start-error';
import { scriptedModel } from '../models/scripted-model';
import { createMemoryCheckpointer } from '../store/checkpointer';
import { createChat } from './create-chat';
import type { ChatAgent, ChatOptions } from './types';

const echo = () => scriptedModel((messages) => ({ text: `${messages.length} messages` }));

afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllEnvs();
});

describe('a thread id the agent cannot find', () => {
  it('without a checkpointer (a reload forgot it): an error saying so, the thread empty, a message starts it', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const agent = createAgent({ model: echo() });
    expect(agent.persistent).toBe(false);
    const chat = createChat({ agent, threadId: 'kept-in-localStorage', schedule: (n) => n() });
    const lost = await until(chat, (s) => s.status !== 'ready');
    expect(lost).toMatchObject({ status: 'error', threadId: 'kept-in-localStorage', messages: [] });
    expect(lost.error).toBeInstanceOf(ThreadNotFoundError);
    expect(lost.error?.message).toContain('the agent has no checkpointer');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toContain("Thread 'kept-in-localStorage' was not found");
    await chat.send('Hello');
    expect(chat.getSnapshot()).toMatchObject({ status: 'ready', error: undefined, threadId: 'kept-in-localStorage' });
    expect((await agent.thread('kept-in-localStorage'))?.messages).toHaveLength(2);
  });

  it('without a checkpointer, a new thread this chat started and left before a message is no loss', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const chat = createChat({ agent: createAgent({ model: echo() }), schedule: (n) => n() });
    const first = chat.getSnapshot().threadId;
    await chat.newThread();
    const second = chat.getSnapshot().threadId;
    await chat.newThread();
    for (const threadId of [first, second]) {
      await chat.openThread(threadId);
      expect(chat.getSnapshot()).toMatchObject({ status: 'ready', error: undefined, threadId, messages: [] });
    }
    expect(warn).not.toHaveBeenCalled();
  });

  it('with a checkpointer: a new conversation by that name, no error, no warning', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const agent = createAgent({ model: echo(), checkpointer: createMemoryCheckpointer() });
    expect(agent.persistent).toBe(true);
    const chat = createChat({ agent, threadId: 'new-one' });
    await chat.openThread('new-one');
    expect(chat.getSnapshot()).toMatchObject({ status: 'ready', error: undefined, threadId: 'new-one', messages: [] });
    expect(warn).not.toHaveBeenCalled();
  });
});

describe('console warnings', () => {
  /** An agent whose run reports a crashed tool, twice, and finishes. */
  const crashing: ChatAgent = {
    thread: async () => undefined,
    threads: async () => [],
    deleteThread: async () => {},
    stream: async function* () {
      for (const toolCallId of ['c1', 'c2'])
        yield {
          type: 'tool-error',
          toolCallId,
          error: new WorkerCrashedError({ toolName: 'explode', toolCallId, reason: 'out of memory' }),
        } as AgentEvent;
      yield finishEvent({ threadId: 't' });
    },
  };
  const run = async (options: Partial<ChatOptions>) => {
    const chat = createChat({ agent: crashing, ...options });
    await chat.send('Go');
  };

  it('a crashed tool is said once, in development', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await run({});
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toMatch(
      /^\[moat-sdk\] The worker running 'explode' \(call c1\) stopped: out of memory/,
    );
  });

  it('a call refused by a full pool queue is load, not a misconfiguration: not said', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const busy: ChatAgent = {
      ...crashing,
      stream: async function* () {
        yield { type: 'tool-error', toolCallId: 'q1', error: new PoolQueueFullError({ maxQueue: 1 }) } as AgentEvent;
      },
    };
    await createChat({ agent: busy }).send('Go');
    expect(warn).not.toHaveBeenCalled();
  });

  it('a tools module that cannot start, a model that refuses the key: said with the reason; a model that is only busy is not', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const failing = (error: Error): ChatAgent => ({
      ...crashing,
      stream: async function* () {
        yield { type: 'error', error } as AgentEvent;
      },
    });
    const chat = createChat({ agent: failing(new WorkerStartError({ reason: 'the module did not load' })) });
    await chat.send('Go');
    expect(chat.getSnapshot().status).toBe('error');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe('[moat-sdk] A tool worker could not start: the module did not load');
    const busy = createChat({ agent: failing(new ModelHTTPError({ status: 429, provider: 'openai', body: '' })) });
    await busy.send('Go');
    expect(warn).toHaveBeenCalledTimes(1);
    const refused = createChat({ agent: failing(new ModelHTTPError({ status: 401, provider: 'openai', body: '' })) });
    await refused.send('Go');
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[1]?.[1]).toBeInstanceOf(ModelHTTPError);
  });

  it('a production build is quiet, unless asked; `off` is quiet anywhere; a bad value is a TypeError', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubEnv('NODE_ENV', 'production');
    await run({});
    expect(warn).not.toHaveBeenCalled();
    await run({ warnings: 'console' });
    expect(warn).toHaveBeenCalledTimes(1);
    vi.unstubAllEnvs();
    await run({ warnings: 'off' });
    expect(warn).toHaveBeenCalledTimes(1);
    expect(() => createChat({ agent: crashing, warnings: 'loud' as 'off' })).toThrow(TypeError);
  });
});
