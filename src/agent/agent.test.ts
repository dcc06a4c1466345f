// The agent loop in Node: a scripted model and inline tools (the browser tests drive real
// clients against the wire-protocol server and tools in workers).
import { describe, expect, it, vi } from 'vitest';
import { add, deleteNote, fail, multiply, type Ran } from '../../test/shared-tools';
import { ModelStreamError } from '../errors/model-stream-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import { isToolMessage } from '../messages/predicates';
import type { Message, ToolMessage } from '../messages/types';
import { type ScriptedTurn, scriptedModel } from '../models/scripted-model';
import type { ChatModel } from '../models/types';
import { createMemoryCheckpointer } from '../store/checkpointer';
import { createAgent } from './agent';
import { newThreadId } from './input';
import type { AgentEvent, AgentOptions } from './types';

/** The calls that ran, as `name arg arg`. */
const ran: string[] = [];
const record: Ran = ({ name, args }) => ran.push([name, ...Object.values(args)].join(' '));
const tools = [multiply({ ran: record }), add({ ran: record }), fail(), deleteNote({ ran: record })];

const toolResults = (messages: readonly Message[]) =>
  messages.filter((m): m is ToolMessage => isToolMessage(m)).map((m) => [m.name, m.status, m.content]);
const lastTool = (messages: readonly Message[]) => messages.at(-1)?.role === 'tool';

/** A model that calls tools first and then answers with what the tools said. */
function mathModel(options = {}): ChatModel {
  return scriptedModel((messages) => {
    if (lastTool(messages))
      return {
        text: `Results: ${toolResults(messages)
          .map((r) => r[2])
          .join(', ')}`,
      };
    return {
      text: 'Let me compute.',
      toolCalls: [
        { name: 'multiply', args: { a: 3, b: 12 } },
        { name: 'add', args: { a: 11, b: 49 } },
      ],
    };
  }, options);
}

const agentWith = (model: ChatModel, options: Partial<AgentOptions> = {}) =>
  createAgent({ model, invoker: new ToolInvoker({ inlineTools: tools }), ...options });

async function collect(iterable: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const e of iterable) events.push(e);
  return events;
}

describe('the loop', () => {
  it('runs parallel calls, answers with their results in call order, sums usage', async () => {
    const events = await collect(agentWith(mathModel()).stream('What is 3 * 12? Also, what is 11 + 49?'));
    const finish = events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', stopReason: 'end', text: 'Results: 36, 60', steps: 2 });
    if (finish?.type !== 'finish') throw new Error('no finish');
    expect(finish.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant']);
    expect(toolResults(finish.messages)).toEqual([
      ['multiply', 'success', '36'],
      ['add', 'success', '60'],
    ]);
    expect(finish.usage.inputTokens).toBeGreaterThan(0);
    const steps = events.filter((e) => e.type === 'step-finish');
    expect(finish.usage.outputTokens).toBe(steps.reduce((n, s) => n + (s.usage?.outputTokens ?? 0), 0));
    expect(events.filter((e) => e.type === 'text-delta').length).toBeGreaterThan(3);
    expect(events.some((e) => e.type === 'tool-input-delta' && 'partialArgs' in e)).toBe(true);
  });

  it('gets call ids from a scripted model that a new instance never repeats (a thread restored after a reload)', async () => {
    const ids = async () =>
      (await agentWith(mathModel()).run('3 * 12 and 11 + 49')).messages
        .filter((m): m is ToolMessage => isToolMessage(m))
        .map((m) => m.toolCallId);
    const [first, second] = [await ids(), await ids()];
    expect(first).toHaveLength(2);
    expect(new Set([...first, ...second]).size).toBe(4);
  });

  it('starts a call the moment its arguments close, while the model still writes the next', async () => {
    const types: string[] = [];
    for await (const e of agentWith(mathModel({ delayMs: 2 })).stream('Go')) {
      if (e.type === 'tool-started' || e.type === 'tool-input-start')
        types.push(`${e.type}:${e.type === 'tool-started' ? e.name : e.name}`);
    }
    expect(types.slice(0, 3)).toEqual(['tool-input-start:multiply', 'tool-started:multiply', 'tool-input-start:add']);
  });

  it('with eagerTools: false, no call starts before the model has finished its turn', async () => {
    const types: string[] = [];
    for await (const e of agentWith(mathModel(), { eagerTools: false }).stream('Go')) types.push(e.type);
    expect(types.indexOf('tool-started')).toBeGreaterThan(types.lastIndexOf('tool-input-delta'));
    expect(types.at(-1)).toBe('finish');
  });

  it('chains steps, and gives an invalid call back to the model, which corrects itself', async () => {
    const model = scriptedModel((messages) => {
      const tools = toolResults(messages);
      if (tools.length === 0) return { toolCalls: [{ name: 'add', args: { a: 'one', b: 2 } as never }] };
      if (tools.length === 1) return { toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }] };
      if (tools.length === 2) return { toolCalls: [{ name: 'multiply', args: { a: 3, b: 3 } }] };
      return { text: `Done: ${tools.at(-1)?.[2]}` };
    });
    const result = await agentWith(model).run('1 + 2, then times 3');
    expect(result.steps).toBe(4);
    expect(result.text).toBe('Done: 9');
    expect(toolResults(result.messages).map((r) => r[1])).toEqual(['error', 'success', 'success']);
    expect(toolResults(result.messages)[0]?.[2]).toMatch(/Please fix your mistakes/);
  });

  it('an unparseable call is an error message the model sees next step', async () => {
    const model: ChatModel = {
      provider: 'test',
      modelId: 'raw',
      stream: (request) =>
        scriptedModel(() =>
          request.messages.some((m) => m.role === 'tool')
            ? { text: 'Sorry.' }
            : { toolCalls: [{ name: 'add', args: {} }] },
        ).stream(request),
    };
    const result = await agentWith(model).run('x');
    expect(result.text).toBe('Sorry.');
  });

  it('a tool error is an error message; the loop goes on', async () => {
    const model = scriptedModel((messages) =>
      lastTool(messages) ? { text: 'That failed.' } : { toolCalls: [{ name: 'fail', args: {} }] },
    );
    const events = await collect(agentWith(model).stream('try'));
    const error = events.find((e) => e.type === 'tool-error');
    expect(error).toMatchObject({ type: 'tool-error', message: { status: 'error' } });
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'end', text: 'That failed.' });
  });

  it('stops after maxSteps model calls', async () => {
    const model = scriptedModel(() => ({ toolCalls: [{ name: 'add', args: { a: 1, b: 1 } }] }));
    const result = await agentWith(model, { maxSteps: 3 }).run('loop forever');
    expect(result).toMatchObject({ stopReason: 'max-steps', steps: 3 });
  });

  it('runs without tools, and a call to a tool nobody serves is an error the model sees', async () => {
    const model = scriptedModel((messages) =>
      lastTool(messages) ? { text: 'No such tool.' } : { toolCalls: [{ name: 'ghost', args: {} }] },
    );
    const result = await createAgent({ model }).run('hi');
    expect(result.text).toBe('No such tool.');
    expect(toolResults(result.messages)[0]).toEqual(['ghost', 'error', expect.stringContaining("'ghost'")]);
  });

  it('sends the system prompt and settings with every request, and the tools as specs', async () => {
    const seen: unknown[] = [];
    const model = scriptedModel((_messages, request) => {
      seen.push({ system: request.system, temperature: request.temperature, tools: request.tools?.map((t) => t.name) });
      return { text: 'ok' };
    });
    await agentWith(model, { system: 'Be brief.', temperature: 0.2 }).run('hi');
    expect(seen).toEqual([
      { system: 'Be brief.', temperature: 0.2, tools: ['multiply', 'add', 'fail', 'delete_note'] },
    ]);
  });
});

describe('threads', () => {
  it('gives each new thread an id of its own', () => {
    const ids = Array.from({ length: 1000 }, () => newThreadId());
    expect(new Set(ids).size).toBe(1000);
    expect(ids[0]).toMatch(/^thread-[0-9a-z-]{10,}-[0-9a-z]+$/);
  });

  it('continues a thread, and an abort mid-step leaves the last checkpoint as it was', async () => {
    const checkpointer = createMemoryCheckpointer();
    const agent = agentWith(mathModel({ delayMs: 3 }), { checkpointer });
    await agent.run('first', { threadId: 't1' });
    const before = await checkpointer.get('t1');
    expect(before?.messages).toHaveLength(5);

    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const e of agent.stream('second', { threadId: 't1', signal: controller.signal })) {
      events.push(e);
      if (e.type === 'text-delta') controller.abort(new Error('stop'));
    }
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'aborted' });
    expect(await checkpointer.get('t1')).toEqual(before);

    const result = await agent.run('third', { threadId: 't1' });
    expect(result.messages.filter((m) => m.role === 'user').map((m) => m.content)).toEqual(['first', 'third']);
  });

  it('stopped while the tools are still being described, it calls no model and runs nothing', async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    let onAsk: (() => void) | undefined;
    class SlowSpecs extends ToolInvoker {
      override async specs() {
        onAsk?.();
        await gate;
        return super.specs();
      }
    }
    let requests = 0;
    const model: ChatModel = {
      provider: 'test',
      modelId: 'counted',
      stream: (request) => {
        requests++;
        return mathModel().stream(request);
      },
    };
    ran.length = 0;
    const controller = new AbortController();
    const agent = createAgent({ model, invoker: new SlowSpecs({ inlineTools: tools }) }); // its early load waits too
    // The step's own request for the specs.
    const asked = new Promise<void>((resolve) => {
      onAsk = resolve;
    });
    const run = agent.run('go', { signal: controller.signal });
    await asked;
    controller.abort(new Error('stop'));
    release();
    expect(await run).toMatchObject({ stopReason: 'aborted', steps: 1 });
    expect(requests).toBe(0);
    expect(ran).toEqual([]);
  });

  it('break cancels the model request and the running tools; a call that started is kept with its result', async () => {
    const checkpointer = createMemoryCheckpointer();
    let aborted = false;
    const model: ChatModel = {
      provider: 'test',
      modelId: 'slow',
      stream: (request) => {
        request.signal?.addEventListener('abort', () => {
          aborted = true;
        });
        return mathModel({ delayMs: 5 }).stream(request);
      },
    };
    for await (const e of agentWith(model, { checkpointer }).stream('go', { threadId: 'b' })) {
      if (e.type === 'tool-started') break;
    }
    expect(aborted).toBe(true);
    // multiply had started (it ignores its signal and finished); add had not: the answer is cut before it.
    const kept = (await checkpointer.get('b'))?.messages;
    expect(kept?.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(kept?.[1]).toMatchObject({ content: 'Let me compute.', toolCalls: [{ name: 'multiply' }] });
    expect(toolResults(kept ?? [])).toEqual([['multiply', 'success', '36']]);
  });

  it('a model failure ends the stream with an error event; run rejects with it', async () => {
    const broken: ChatModel = {
      provider: 'test',
      modelId: 'broken',
      stream: () => ({
        async *[Symbol.asyncIterator]() {
          yield { type: 'text-delta' as const, delta: 'Hal' };
          throw new ModelStreamError({ provider: 'test', reason: 'truncated', detail: 'cut' });
        },
        message: () => {
          throw new Error('no message');
        },
      }),
    };
    const events = await collect(agentWith(broken).stream('x'));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { name: 'ModelStreamError' } });
    await expect(agentWith(broken).run('x')).rejects.toBeInstanceOf(ModelStreamError);
  });

  it('refuses bad input and options with a TypeError naming them, as an error event', async () => {
    const agent = agentWith(mathModel());
    await expect(agent.run(42 as never)).rejects.toThrow(/An agent takes a user's text/);
    await expect(agent.run('x', { threadId: '' })).rejects.toThrow(/`threadId` to be a non-empty string/);
    await expect(agent.run('x', { signal: {} as never })).rejects.toThrow(/`signal` to be an AbortSignal/);
    await expect(agent.run({ approvals: { a: 'yes' as never } })).rejects.toThrow(/decision on call 'a'/);
    expect(() => createAgent({ model: {} as never })).toThrow(/`model` to be a chat model/);
    expect(() => agentWith(mathModel(), { maxSteps: 0 })).toThrow(/`maxSteps` to be a positive integer/);
    expect(() => agentWith(mathModel(), { temperature: -1 })).toThrow(/`temperature`/);
  });
});

describe('approvals', () => {
  const deleting = (): ChatModel =>
    scriptedModel((messages) => {
      if (lastTool(messages))
        return {
          text: `Outcome: ${toolResults(messages)
            .map((r) => r[2])
            .join(' | ')}`,
        };
      return {
        toolCalls: [
          { name: 'delete_note', args: { key: 'groceries' } },
          { name: 'add', args: { a: 2, b: 2 } },
        ],
      };
    });

  it('holds a call that needs approval, runs it once when approved, never twice', async () => {
    ran.length = 0;
    const checkpointer = createMemoryCheckpointer();
    const agent = agentWith(deleting(), { checkpointer });
    const events = await collect(agent.stream('delete my groceries note', { threadId: 'a1' }));
    const request = events.find((e) => e.type === 'approval-request');
    expect(request).toMatchObject({ toolCall: { name: 'delete_note', args: { key: 'groceries' } } });
    const first = events.at(-1);
    expect(first).toMatchObject({
      type: 'finish',
      stopReason: 'approval',
      pendingApprovals: [{ name: 'delete_note' }],
    });
    expect(ran).toEqual(['add 2 2']);

    // A fresh agent (as after a reload) resumes from the checkpoint.
    const id = request?.type === 'approval-request' ? request.toolCall.id : '';
    const again = agentWith(deleting(), { checkpointer });
    const result = await again.run({ approvals: { [id]: true } }, { threadId: 'a1' });
    expect(result.stopReason).toBe('end');
    expect(result.text).toBe('Outcome: Deleted groceries | 4');
    expect(ran).toEqual(['add 2 2', 'delete_note groceries']);
    await expect(again.run({ approvals: { [id]: true } }, { threadId: 'a1' })).rejects.toThrow(/none is waiting/);
    expect(ran).toEqual(['add 2 2', 'delete_note groceries']);
  });

  it('shows a saved thread as a UI restores it: messages, pending calls, and the thread list', async () => {
    // The clock is the test's: threads are listed by when they were saved.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(1_000_000);
      const checkpointer = createMemoryCheckpointer();
      const agent = agentWith(deleting(), { checkpointer });
      expect(await agent.thread('nothing')).toBeUndefined();
      await agent.run('delete it', { threadId: 'r1' });
      const snapshot = await agentWith(deleting(), { checkpointer }).thread('r1');
      expect(snapshot).toMatchObject({
        threadId: 'r1',
        pendingApprovals: [{ name: 'delete_note', args: { key: 'groceries' } }],
      });
      expect(snapshot?.messages[0]).toMatchObject({ role: 'user', content: 'delete it' });
      // Saved at the clock's time (each later save of the run one ms on, so that they stay ordered).
      expect(snapshot?.updatedAt).toBeGreaterThanOrEqual(1_000_000);
      expect(snapshot?.updatedAt).toBeLessThan(1_000_100);
      vi.setSystemTime(2_000_000);
      await agent.run('hello', { threadId: 'r2' });
      expect(await agent.threads()).toEqual([
        { threadId: 'r2', updatedAt: expect.toSatisfy((t: number) => t >= 2_000_000) },
        { threadId: 'r1', updatedAt: snapshot?.updatedAt },
      ]);
      await agent.deleteThread('r1');
      expect((await agent.threads()).map((t) => t.threadId)).toEqual(['r2']);
      expect(await agent.thread('r1')).toBeUndefined();
      await expect(agent.thread('' as string)).rejects.toThrow(/Expected a thread id/);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a denied call becomes an error message with the reason', async () => {
    ran.length = 0;
    const agent = agentWith(deleting());
    const first = await agent.run('delete it', { threadId: 'd1' });
    const id = first.pendingApprovals?.[0]?.id as string;
    const result = await agent.run({ approvals: { [id]: { approved: false, reason: 'keep it' } } }, { threadId: 'd1' });
    expect(result.text).toMatch(/not approved: keep it/);
    expect(ran).toEqual(['add 2 2']);
  });

  it('two resumes at once run the call once', async () => {
    ran.length = 0;
    const agent = agentWith(deleting());
    const first = await agent.run('delete it', { threadId: 'c1' });
    const id = first.pendingApprovals?.[0]?.id as string;
    const results = await Promise.allSettled([
      agent.run({ approvals: { [id]: true } }, { threadId: 'c1' }),
      agent.run({ approvals: { [id]: true } }, { threadId: 'c1' }),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect(ran.filter((r) => r.startsWith('delete'))).toEqual(['delete_note groceries']);
  });

  it('a new message while a call waits refuses it, so the thread stays well-formed', async () => {
    const agent = agentWith(deleting());
    await agent.run('delete it', { threadId: 'n1' });
    const result = await agent.run('never mind', { threadId: 'n1' });
    const denied = toolResults(result.messages).find((r) => r[0] === 'delete_note');
    expect(denied?.[1]).toBe('error');
    expect(denied?.[2]).toMatch(/new message instead of deciding/);
  });

  it("the agent's approve policy can allow, ask or refuse any call", async () => {
    ran.length = 0;
    const agent = agentWith(deleting(), {
      approve: (call, { spec }) =>
        call.name === 'add' ? { approved: false, reason: 'no math today' } : spec?.needsApproval === true,
    });
    const result = await agent.run('go');
    expect(result.stopReason).toBe('end');
    expect(ran).toEqual(['delete_note groceries']);
    expect(result.text).toMatch(/no math today/);
  });

  it('a call that was running when the page went away is reported, not run again', async () => {
    const checkpointer = createMemoryCheckpointer();
    await checkpointer.put('r1', {
      id: 'step-00000001',
      threadId: 'r1',
      createdAt: 1,
      messages: [
        { role: 'user', content: 'delete' },
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'x1', name: 'delete_note', args: { key: 'a' } }],
          invalidToolCalls: [],
        },
      ],
      state: {},
      metadata: { seq: 1, running: [{ id: 'x1', name: 'delete_note', args: { key: 'a' } }] },
    });
    ran.length = 0;
    const model = scriptedModel(
      (messages) => ({ text: `Saw: ${toolResults(messages)[0]?.[2]}` }) satisfies ScriptedTurn,
    );
    const result = await agentWith(model, { checkpointer }).run('what happened?', { threadId: 'r1' });
    expect(result.text).toMatch(/interrupted while it ran/);
    expect(ran).toEqual([]);
  });
});

describe('a long answer', () => {
  it('is read in slices when its parts come without a wait: the page runs between them while the calls start', async () => {
    // A clock that moves 1 ms at each reading: a slice (25 ms) ends after a few dozen parts.
    let now = 0;
    const clock = vi.spyOn(performance, 'now').mockImplementation(() => ++now);
    // The page's own work: a task that runs whenever the page gets to run.
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      ticks++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    try {
      const calls = Array.from({ length: 200 }, (_, i) => ({ name: 'add', args: { a: i, b: 1 } }));
      const model = scriptedModel((messages) => (lastTool(messages) ? { text: 'done' } : { toolCalls: calls }));
      const agent = createAgent({ model, invoker: new ToolInvoker({ inlineTools: [add()] }) });
      const seen: number[] = [];
      for await (const event of agent.stream('add')) if (event.type === 'tool-call') seen.push(ticks);
      expect(seen).toHaveLength(200);
      // A stream read in one go (microtasks only) let the page run not once between its first and last call.
      expect((seen.at(-1) as number) - (seen[0] as number)).toBeGreaterThan(1);
    } finally {
      ticking = false;
      clock.mockRestore();
    }
  });
});
