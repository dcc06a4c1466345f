// `save: false`: a one-off run on a chat's agent (a structured output on the side) keeps nothing,
// so it never becomes a conversation in the thread list.
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { defineTool } from '../../worker/define-tool';
import { createChat } from '../chat/create-chat';
import { ToolInvoker } from '../invoker/tool-invoker';
import { textOf } from '../messages/text-of';
import { scriptedModel } from '../models/scripted-model';
import { createMemoryCheckpointer } from '../store/checkpointer';
import { createAgent } from './agent';

const ran: string[] = [];
const remove = defineTool({
  name: 'delete_note',
  description: 'Delete a note.',
  input: zm.object({}),
  needsApproval: true,
  run: () => {
    ran.push('delete');
    return 'Deleted';
  },
});

/** Answers a title as JSON when asked for one, calls delete_note when told to, else counts the messages it was sent. */
const model = () =>
  scriptedModel((messages, request) => {
    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: `Tool said: ${textOf(last.content)}` };
    const text = last ? textOf(last.content) : '';
    if (request.output) return { text: JSON.stringify({ title: `${messages.length - 1} messages before` }) };
    if (text === 'Delete') return { toolCalls: [{ name: 'delete_note', args: {} }] };
    return { text: `${messages.length} messages` };
  });

const setUp = () => {
  const checkpointer = createMemoryCheckpointer();
  const agent = createAgent({ model: model(), invoker: new ToolInvoker({ inlineTools: [remove] }), checkpointer });
  return { agent, checkpointer };
};
const Title = z.object({ title: z.string() });

describe('a run with save: false', () => {
  it("is not a thread: a chat's list keeps its one conversation", async () => {
    const { agent } = setUp();
    const chat = createChat({ agent, schedule: (n) => n() });
    await chat.send('Hello');
    const { output, threadId } = await agent.run('Name a colour', { output: Title, save: false });
    expect(output).toEqual({ title: '0 messages before' });
    expect(await agent.thread(threadId)).toBeUndefined();
    expect((await agent.threads()).map((t) => t.threadId)).toEqual([chat.getSnapshot().threadId]);
    await chat.refreshThreads();
    expect(chat.getSnapshot().threads).toHaveLength(1);
  });

  it('on a thread: reads it and leaves it as it was', async () => {
    const { agent } = setUp();
    const { threadId, messages } = await agent.run('Hello');
    const { output } = await agent.run('Title this', { threadId, output: Title, save: false });
    expect(output).toEqual({ title: '2 messages before' });
    expect((await agent.thread(threadId))?.messages).toEqual(messages);
  });

  it('refuses a call that needs approval (nothing is kept to resume), and takes no decisions', async () => {
    ran.length = 0;
    const { agent } = setUp();
    const result = await agent.run('Delete', { save: false });
    expect(ran).toEqual([]);
    expect(result.stopReason).toBe('end');
    expect(result.pendingApprovals).toBeUndefined();
    expect(result.text).toMatch(/^Tool said: Error: .*needs a person's approval, which a run that saves nothing/);
    expect(await agent.threads()).toEqual([]);
    await expect(agent.run({ approvals: { x: true } }, { threadId: 't', save: false })).rejects.toThrow(
      /cannot take them/,
    );
    await expect(agent.run('Hi', { save: 'no' as unknown as boolean })).rejects.toThrow(TypeError);
  });
});
