// A failed call's error on its chat part: a kind and a sentence for a person, the same after a
// reload (a new agent and chat over the same checkpointer), while the model keeps its own text.
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { until } from '../../test/chat-helpers';
import { defineTool } from '../../worker/define-tool';
import { createAgent } from '../agent/agent';
import { ToolInvoker } from '../invoker/tool-invoker';
import { textOf } from '../messages/text-of';
import type { ToolMessage } from '../messages/types';
import { scriptedModel } from '../models/scripted-model';
import { type Checkpointer, createMemoryCheckpointer } from '../store/checkpointer';
import { createChat } from './create-chat';
import type { ChatSnapshot, UIToolPart } from './types';

const tools = [
  defineTool({
    name: 'explode',
    description: 'Throws.',
    input: z.object({}),
    run: () => {
      throw new Error('kaboom');
    },
  }),
  defineTool({
    name: 'wait',
    description: 'Runs until it is stopped.',
    input: z.object({}),
    run: (_args, { signal }) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
  }),
  defineTool({
    name: 'wait_approved',
    description: 'Runs, once approved, until it is stopped.',
    input: z.object({}),
    needsApproval: true,
    run: (_args, { signal }) =>
      new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason), { once: true })),
  }),
  defineTool({
    name: 'delete_note',
    description: 'Deletes a note.',
    input: z.object({}),
    needsApproval: true,
    run: () => 'Deleted',
  }),
];

/** Calls the tool named by the person's message, then says what the tool answered. */
const model = () =>
  scriptedModel((messages) => {
    const last = messages.at(-1);
    if (last?.role === 'tool') return { text: `Tool said: ${textOf(last.content)}` };
    return { toolCalls: [{ name: last ? textOf(last.content) : '', args: {} }] };
  });

const agentOver = (checkpointer: Checkpointer) =>
  createAgent({ model: model(), invoker: new ToolInvoker({ inlineTools: tools }), checkpointer });

const toolParts = (snapshot: ChatSnapshot) =>
  snapshot.messages.flatMap((m) => m.parts.filter((p): p is UIToolPart => p.type === 'tool'));

describe("a failed call's error, for a person", () => {
  it('a throw, a refusal and a stop: a kind and a sentence with no call id, the same after a reload', async () => {
    const checkpointer = createMemoryCheckpointer();
    const chat = createChat({ agent: agentOver(checkpointer), schedule: (notify) => notify() });
    await chat.send('explode');
    await chat.send('delete_note');
    const waiting = chat.getSnapshot().pendingApprovals[0]?.id as string;
    await chat.approve(waiting, { approved: false, reason: 'keep it' });
    const sending = chat.send('wait');
    await until(chat, (s) => toolParts(s).at(-1)?.state === 'running');
    chat.stop();
    await sending;
    const live = toolParts(chat.getSnapshot()).map(({ toolName, state, error }) => ({ toolName, state, error }));
    expect(live).toEqual([
      { toolName: 'explode', state: 'output-error', error: { kind: 'failed', message: 'Failed: kaboom' } },
      { toolName: 'delete_note', state: 'output-denied', error: { kind: 'denied', message: 'Not approved: keep it.' } },
      { toolName: 'wait', state: 'output-error', error: { kind: 'stopped', message: 'Stopped.' } },
    ]);
    // JSON data: a UI may keep the parts as they are.
    expect(JSON.parse(JSON.stringify(live))).toEqual(live);

    // The model still reads the invoker's text, call id and advice included.
    const saved = await agentOver(checkpointer).thread(chat.getSnapshot().threadId);
    const results = saved?.messages.filter((m): m is ToolMessage => m.role === 'tool') ?? [];
    expect(textOf(results[0]?.content ?? '')).toMatch(/^Error: Tool 'explode' \(call .+\) failed: kaboom\n Please fix/);

    const reloaded = createChat({ agent: agentOver(checkpointer), threadId: chat.getSnapshot().threadId });
    const shown = await until(reloaded, (s) => s.messages.length > 0);
    expect(toolParts(shown).map(({ toolName, state, error }) => ({ toolName, state, error }))).toEqual(live);
  });

  it('an approved call stopped while it ran stays stopped, after the next run and a reload (not "interrupted")', async () => {
    const checkpointer = createMemoryCheckpointer();
    const chat = createChat({ agent: agentOver(checkpointer), schedule: (notify) => notify() });
    await chat.send('wait_approved');
    const approving = chat.approve(chat.getSnapshot().pendingApprovals[0]?.id as string, true);
    await until(chat, (s) => toolParts(s)[0]?.state === 'running');
    chat.stop();
    await approving;
    const stopped = { state: 'output-error', error: { kind: 'stopped', message: 'Stopped.' } };
    expect(toolParts(chat.getSnapshot())[0]).toMatchObject(stopped);
    await chat.send('explode');
    const reloaded = createChat({ agent: agentOver(checkpointer), threadId: chat.getSnapshot().threadId });
    const shown = await until(reloaded, (s) => s.messages.length > 0);
    expect(toolParts(shown)[0]).toMatchObject({ toolName: 'wait_approved', ...stopped });
  });
});
