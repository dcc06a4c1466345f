// Long conversations in Node with a scripted model: the request fitted to a context window,
// fitted again on an overflow, fallback models, usage and cost that persist, budgets,
// prepareStep and stopWhen. (The browser tests drive the five clients against the wire server.)
import { describe, expect, it } from 'vitest';
import { add, deleteNote, type Ran } from '../../test/shared-tools';
import { ModelHTTPError } from '../errors/model-http-error';
import { ModelNetworkError } from '../errors/model-network-error';
import { ToolInvoker } from '../invoker/tool-invoker';
import type { Message } from '../messages/types';
import { modelStream } from '../models/model-stream';
import { scriptedModel } from '../models/scripted-model';
import type { ChatModel, ModelRequest } from '../models/types';
import { createMemoryCheckpointer } from '../store/checkpointer';
import { createAgent } from './agent';
import { estimateTokens } from './fit-context';
import type { AgentEvent, AgentOptions } from './types';
import { checkUsageOptions, costOf } from './usage';

const invoker = () => new ToolInvoker({ inlineTools: [add()] });

/** Calls add once per user message, then answers with its result. */
function adder(seen: ModelRequest[], options: { contextWindow?: number; name?: string } = {}): ChatModel {
  return scriptedModel((messages, request) => {
    seen.push(request);
    if (messages.at(-1)?.role === 'tool') return { text: `The sum is ${String(messages.at(-1)?.content)}.` };
    return { text: 'Adding.', toolCalls: [{ name: 'add', args: { a: messages.length, b: 1 } }] };
  }, options);
}

/** A model whose first calls fail with `errors` (before any part), then `inner` answers. */
function failing(inner: ChatModel, errors: Error[], seen: ModelRequest[] = []): ChatModel {
  return {
    provider: 'flaky',
    modelId: `flaky-${inner.modelId}`,
    ...(inner.contextWindow ? { contextWindow: inner.contextWindow } : {}),
    stream(request) {
      seen.push(request);
      const error = errors.shift();
      if (!error) return inner.stream(request);
      return modelStream('flaky', request.signal, () => {
        throw error;
      });
    },
  };
}

const overflow = (body: string) => new ModelHTTPError({ status: 400, provider: 'openai-compatible', body });
const OPENAI_OVERFLOW = (limit: number, sent: number) =>
  JSON.stringify({
    error: {
      message: `This model's maximum context length is ${limit} tokens. However, your messages resulted in ${sent} tokens.`,
      code: 'context_length_exceeded',
    },
  });

async function collect(iterable: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const e of iterable) events.push(e);
  return events;
}
const finishOf = (events: AgentEvent[]) => {
  const last = events.at(-1);
  if (last?.type !== 'finish') throw new Error(`no finish: ${JSON.stringify(last)}`);
  return last;
};

/** Whether a request holds a result without its call or a call without its result. */
function orphans(messages: readonly Message[]): string[] {
  const out: string[] = [];
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'tool') {
      if (!open.delete(m.toolCallId)) out.push(`result ${m.toolCallId}`);
      continue;
    }
    for (const id of open) out.push(`call ${id}`);
    open.clear();
    if (m.role === 'assistant') for (const c of m.toolCalls) open.add(c.id);
  }
  for (const id of open) out.push(`call ${id}`);
  return out;
}

describe('context that fits', () => {
  it('a long thread sends what fits the window, keeps everything, and records what was sent', async () => {
    const seen: ModelRequest[] = [];
    const checkpointer = createMemoryCheckpointer();
    const agent = createAgent({
      model: adder(seen, { contextWindow: 600 }),
      invoker: invoker(),
      checkpointer,
      system: 'You add.',
    });
    const threadId = 'long';
    for (let turn = 0; turn < 30; turn++) {
      const result = await agent.run(`Turn ${turn}: ${'please add these numbers for me '.repeat(3)}`, { threadId });
      expect(result.stopReason).toBe('end');
    }
    // The thread keeps all 30 exchanges (user, call, result, answer).
    const thread = await agent.thread(threadId);
    expect(thread?.messages).toHaveLength(120);
    for (const request of seen) {
      expect(orphans(request.messages)).toEqual([]);
      expect(request.messages[0]?.role).toBe('user');
      const tokens = request.messages.reduce((n, m) => n + estimateTokens(m), 0);
      expect(tokens).toBeLessThanOrEqual(600);
    }
    // The last request left the oldest exchanges out, and kept the latest user message.
    const last = seen.at(-1) as ModelRequest;
    expect(last.messages.length).toBeLessThan(40);
    expect(last.messages).toContainEqual(
      expect.objectContaining({ role: 'user', content: expect.stringMatching(/^Turn 29/) }),
    );
    // Each step's checkpoint says which of the thread's messages it sent.
    const [newest] = await checkpointer.list(threadId, { limit: 1 });
    const sent = (newest?.metadata?.step as { sent: { ranges: [number, number][] } } | undefined)?.sent;
    if (!sent) throw new Error('the step did not record what it sent');
    const before = (await checkpointer.list(threadId, { limit: 2 }))[1];
    const rebuilt = sent.ranges.flatMap(([a, b]) => before?.messages.slice(a, b) ?? []);
    expect(rebuilt).toEqual(last.messages);
  });

  it("a provider's context-overflow refusal fits the request again and sends it once more", async () => {
    const seen: ModelRequest[] = [];
    const model = failing(adder([]), [overflow(OPENAI_OVERFLOW(300, 900))], seen);
    const agent = createAgent({ model, invoker: invoker() });
    const history: Message[] = [];
    for (let i = 0; i < 10; i++)
      history.push(
        { role: 'user', content: `question ${i} ${'x'.repeat(200)}` },
        {
          role: 'assistant',
          content: `answer ${i} ${'y'.repeat(200)}`,
          toolCalls: [],
          invalidToolCalls: [],
        },
      );
    history.push({ role: 'user', content: 'and now?' });
    const events = await collect(agent.stream(history));
    expect(finishOf(events).stopReason).toBe('end');
    expect(events.filter((e) => e.type === 'model-retry')).toEqual([
      expect.objectContaining({
        reason: 'context-overflow',
        step: 1,
        from: expect.objectContaining({ modelId: 'flaky-scripted' }),
      }),
    ]);
    // First sent whole (no window known), then fitted to the window the refusal named.
    expect(seen[0]?.messages).toHaveLength(21);
    expect(seen[1]?.messages.length).toBeLessThan(21);
    expect(seen[1]?.messages.at(-1)).toEqual(expect.objectContaining({ content: 'and now?' }));
  });

  it('a second overflow on the same model fails the run (no fallback given)', async () => {
    const model = failing(adder([]), [
      overflow('{"error":{"code":"context_length_exceeded"}}'),
      overflow('{"error":{"code":"context_length_exceeded"}}'),
    ]);
    const events = await collect(createAgent({ model, invoker: invoker() }).stream('hi'));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { name: 'ModelHTTPError', status: 400 } });
  });
});

describe('a summary of what is left out', () => {
  it('the exchanges a fitted request drops are summarized once each by the summarizer, the summary sent with the system prompt', async () => {
    const seen: ModelRequest[] = [];
    const asked: string[] = [];
    let summaries = 0;
    const summarizer = scriptedModel((messages) => {
      asked.push(String(messages[0]?.content));
      return { text: `summary ${++summaries}` };
    });
    const checkpointer = createMemoryCheckpointer();
    const agent = createAgent({
      model: adder(seen, { contextWindow: 1_200 }),
      invoker: invoker(),
      checkpointer,
      system: 'You add.',
      summarizer,
    });
    for (let turn = 0; turn < 20; turn++)
      await agent.run(`Turn ${turn}: ${'please add these numbers for me '.repeat(3)}`, { threadId: 's' });
    expect(summaries).toBeGreaterThan(1);
    // Each call after the first goes on from the summary before it, with only what was dropped since.
    expect(asked[0]).toContain('User: Turn 0');
    expect(asked[0]).not.toContain('Summary so far');
    expect(asked[1]).toContain('Summary so far:\nsummary 1');
    expect(asked[1]).not.toContain('User: Turn 0');
    const last = seen.at(-1) as ModelRequest;
    expect(last.system).toBe(`You add.\n\nSummary of the conversation so far:\nsummary ${summaries}`);
    expect(orphans(last.messages)).toEqual([]);
    expect(last.messages[0]?.role).toBe('user');
    // The summary is kept with the thread and named with the step; its calls are counted.
    const [newest] = await checkpointer.list('s', { limit: 1 });
    const note = newest?.metadata?.summary as { upTo: number; text: string };
    expect(note.text).toBe(`summary ${summaries}`);
    expect(newest?.metadata?.step).toMatchObject({ sent: { summary: note.upTo } });
    expect((await agent.thread('s'))?.totals).toMatchObject({ steps: 40, summaries });
    // What was sent starts where the summary ends.
    const sent = (newest?.metadata?.step as { sent: { ranges: [number, number][] } } | undefined)?.sent;
    expect(sent?.ranges[0]?.[0]).toBe(note.upTo);
  });

  it("the summarizer's calls count in the run's usage and cost (and its budget), not as its steps", async () => {
    let summaries = 0;
    const summarizer = scriptedModel(() => ({ text: `summary ${++summaries} ${'of the facts '.repeat(20)}` }), {
      name: 'summarizer',
    });
    const prices = { scripted: { input: 2, output: 10 }, summarizer: { input: 1, output: 4 } };
    const checkpointer = createMemoryCheckpointer();
    const agent = createAgent({
      model: adder([], { contextWindow: 1_200 }),
      invoker: invoker(),
      checkpointer,
      summarizer,
      prices,
    });
    let before = (await agent.thread('u'))?.totals;
    for (let turn = 0; turn < 12; turn++) {
      const had = summaries;
      const events = await collect(
        agent.stream(`Turn ${turn}: ${'please add these numbers for me '.repeat(3)}`, { threadId: 'u' }),
      );
      const result = finishOf(events);
      const stepTokens = events.reduce((n, e) => n + (e.type === 'step-finish' ? (e.usage?.inputTokens ?? 0) : 0), 0);
      // What the run used is what the thread's totals grew by: its steps and its summaries.
      const { totals } = result;
      expect(result.usage.inputTokens).toBe(totals.inputTokens - (before?.inputTokens ?? 0));
      expect(result.usage.outputTokens).toBe(totals.outputTokens - (before?.outputTokens ?? 0));
      expect(result.cost).toBeCloseTo((totals.cost ?? 0) - (before?.cost ?? 0), 12);
      expect(totals.steps - (before?.steps ?? 0)).toBe(result.steps);
      expect((totals.summaries ?? 0) - (before?.summaries ?? 0)).toBe(summaries - had);
      if (summaries > had) expect(result.usage.inputTokens).toBeGreaterThan(stepTokens);
      before = totals;
    }
    expect(summaries).toBeGreaterThan(1);
    // A run budget counts them: a step with a summary spends what it and its summary used.
    const tight = createAgent({
      model: adder([], { contextWindow: 1_200 }),
      invoker: invoker(),
      checkpointer,
      summarizer,
      budget: { runTokens: 1 },
    });
    const had = summaries;
    let events: AgentEvent[] = [];
    for (let turn = 12; turn < 20 && summaries === had; turn++)
      events = await collect(
        tight.stream(`Turn ${turn}: ${'please add these numbers for me '.repeat(3)}`, { threadId: 'u' }),
      );
    expect(summaries).toBe(had + 1);
    const { usage, budget, steps } = finishOf(events);
    const step = events.find((e) => e.type === 'step-finish');
    const stepTokens =
      step?.type === 'step-finish' ? (step.usage?.inputTokens ?? 0) + (step.usage?.outputTokens ?? 0) : 0;
    expect(steps).toBe(1);
    expect(budget).toEqual({ limit: 'runTokens', used: (usage.inputTokens ?? 0) + (usage.outputTokens ?? 0), max: 1 });
    expect(budget?.used).toBeGreaterThan(stepTokens);
  });

  it('a summarizer that fails leaves the exchanges out, and the run goes on', async () => {
    const seen: ModelRequest[] = [];
    const summarizer = failing(
      adder([]),
      Array.from({ length: 100 }, () => new ModelNetworkError({ provider: 'x', url: 'u' })),
    );
    const agent = createAgent({ model: adder(seen, { contextWindow: 600 }), invoker: invoker(), summarizer });
    for (let turn = 0; turn < 10; turn++) {
      const result = await agent.run(`Turn ${turn}: ${'please add these numbers for me '.repeat(3)}`, {
        threadId: 'f',
      });
      expect(result.stopReason).toBe('end');
    }
    expect(seen.at(-1)?.system).toBeUndefined();
    expect(seen.at(-1)?.messages.length).toBeLessThan(40);
  });
});

describe('fallback models', () => {
  const faults: [string, () => Error][] = [
    ['a network error', () => new ModelNetworkError({ provider: 'flaky', url: 'http://x' })],
    [
      'a 529',
      () =>
        new ModelHTTPError({
          status: 529,
          provider: 'anthropic',
          body: '{"type":"error","error":{"type":"overloaded_error"}}',
        }),
    ],
    ['a 503', () => new ModelHTTPError({ status: 503, provider: 'gemini', body: 'UNAVAILABLE' })],
    ['a 429', () => new ModelHTTPError({ status: 429, provider: 'openai-compatible', body: 'rate limited' })],
    ['a context overflow twice', () => overflow('{"error":{"code":"context_length_exceeded"}}')],
  ];
  it.each(faults)('%s switches to the next model before the step begins', async (what, fault) => {
    const second = adder([], { name: 'second' });
    const errors = what.includes('twice') ? [fault(), fault()] : [fault()];
    const agent = createAgent({ model: failing(adder([]), errors), fallbackModels: [second], invoker: invoker() });
    const events = await collect(agent.stream('add'));
    const retries = events.filter((e) => e.type === 'model-retry');
    expect(retries.at(-1)).toMatchObject({
      reason: what.includes('overflow') ? 'context-overflow' : 'unavailable',
      from: { provider: 'flaky' },
      to: { provider: 'scripted', modelId: 'second' },
    });
    const steps = events.filter((e) => e.type === 'step-finish');
    // The first step is the second model's (and so is the next: the first model answers again).
    expect(steps.map((e) => e.type === 'step-finish' && e.model.modelId)).toEqual(['second', 'flaky-scripted']);
    expect(finishOf(events).stopReason).toBe('end');
    // No event of the step came before the switch but the retry itself.
    const firstRetry = events.findIndex((e) => e.type === 'model-retry');
    expect(events.slice(0, firstRetry).map((e) => e.type)).toEqual([]);
  });

  it('a refusal of the request itself (a 400) fails the run: another model would refuse it too', async () => {
    const second = adder([], { name: 'second' });
    const model = failing(adder([]), [new ModelHTTPError({ status: 400, provider: 'x', body: 'bad tools' })]);
    const events = await collect(createAgent({ model, fallbackModels: [second], invoker: invoker() }).stream('add'));
    expect(events.at(-1)).toMatchObject({ type: 'error', error: { status: 400 } });
    expect(events.some((e) => e.type === 'model-retry')).toBe(false);
  });
});

describe('usage, cost and budgets', () => {
  const prices = { scripted: { input: 2, output: 10, cachedInput: 1 } };

  it('each step saves its usage and cost with its checkpoint; the thread keeps totals across agents', async () => {
    const checkpointer = createMemoryCheckpointer();
    const options: AgentOptions = { model: adder([]), invoker: invoker(), checkpointer, prices };
    const first = await createAgent(options).run('add', { threadId: 't' });
    expect(first.steps).toBe(2);
    expect(first.totals.steps).toBe(2);
    expect(first.totals.inputTokens).toBe(first.usage.inputTokens);
    expect(first.cost).toBeCloseTo(
      ((first.usage.inputTokens ?? 0) * 2 + (first.usage.outputTokens ?? 0) * 10) / 1e6,
      12,
    );
    const [newest] = await checkpointer.list('t', { limit: 1 });
    expect(newest?.metadata?.step).toMatchObject({
      model: 'scripted:scripted',
      usage: { inputTokens: expect.any(Number) },
    });
    expect(newest?.metadata?.totals).toEqual(first.totals);
    // A new agent (a reload) continues the totals.
    const again = createAgent(options);
    expect((await again.thread('t'))?.totals).toEqual(first.totals);
    const second = await again.run('add more', { threadId: 't' });
    expect(second.totals.steps).toBe(4);
    expect(second.totals.inputTokens).toBe((first.usage.inputTokens ?? 0) + (second.usage.inputTokens ?? 0));
    expect(second.totals.cost).toBeCloseTo((first.cost ?? 0) + (second.cost ?? 0), 12);
  });

  it('prices uncached input, cache reads, cache writes and output each at its rate', () => {
    const usage = { inputTokens: 1_000, outputTokens: 50, cachedInputTokens: 400, cacheWriteTokens: 100 };
    const price = { input: 3, output: 15, cachedInput: 0.3, cacheWrite: 3.75 };
    expect(costOf(usage, price)).toBeCloseTo((500 * 3 + 400 * 0.3 + 100 * 3.75 + 50 * 15) / 1e6, 12);
    // Without a cache-write price, a written token costs what an input token does.
    expect(costOf(usage, { input: 3, output: 15 })).toBeCloseTo((1_000 * 3 + 50 * 15) / 1e6, 12);
    expect(() => checkUsageOptions(undefined, { m: { input: 1, output: 1, cacheWrite: -1 } })).toThrow(
      /\{ input, output, cachedInput\?, cacheWrite\? \}/,
    );
  });

  it('a run budget stops the run before its next model call, with which limit', async () => {
    const seen: ModelRequest[] = [];
    const agent = createAgent({ model: adder(seen), invoker: invoker(), budget: { runTokens: 1 } });
    const result = await agent.run('add');
    expect(result.stopReason).toBe('budget');
    expect(result.budget).toEqual({ limit: 'runTokens', used: expect.any(Number), max: 1 });
    expect(result.steps).toBe(1);
    expect(seen).toHaveLength(1);
  });

  it('a thread budget stops the next run before any model call, and keeps its message', async () => {
    const seen: ModelRequest[] = [];
    const checkpointer = createMemoryCheckpointer();
    const agent = createAgent({
      model: adder(seen),
      invoker: invoker(),
      checkpointer,
      prices,
      budget: { threadCost: 1e-9 },
    });
    expect((await agent.run('add', { threadId: 't' })).stopReason).toBe('budget');
    const calls = seen.length;
    const result = await agent.run('again', { threadId: 't' });
    expect(result).toMatchObject({ stopReason: 'budget', steps: 0, budget: { limit: 'threadCost', max: 1e-9 } });
    expect(seen).toHaveLength(calls);
    expect((await agent.thread('t'))?.messages.at(-1)).toMatchObject({ role: 'user', content: 'again' });
  });

  it('checks its options', () => {
    expect(() => createAgent({ model: adder([]), budget: { runTokens: -1 } })).toThrow(/budget.runTokens/);
    expect(() => createAgent({ model: adder([]), budget: { tokens: 1 } as never })).toThrow(/Unknown budget/);
    expect(() => createAgent({ model: adder([]), prices: { m: { input: 1 } } as never })).toThrow(/price of 'm'/);
    expect(() => createAgent({ model: adder([]), fallbackModels: [{}] as never })).toThrow(/fallbackModels/);
    expect(() => createAgent({ model: adder([]), stopWhen: [1] as never })).toThrow(/stopWhen/);
  });
});

describe('per-step control', () => {
  it('prepareStep changes the model, system, tools and messages of one step; the thread keeps its own', async () => {
    const first: ModelRequest[] = [];
    const other: ModelRequest[] = [];
    const agent = createAgent({
      model: adder(first),
      invoker: invoker(),
      system: 'base',
      prepareStep: ({ step, messages, tools }) =>
        step === 2
          ? { model: adder(other, { name: 'other' }), system: 'second step', tools: [], messages: messages.slice(-2) }
          : { tools: tools.filter((t) => t.name === 'add') },
    });
    const result = await agent.run('add');
    expect(first).toHaveLength(1);
    expect(first[0]?.system).toBe('base');
    expect(first[0]?.tools?.map((t) => t.name)).toEqual(['add']);
    expect(other).toHaveLength(1);
    expect(other[0]).toMatchObject({ system: 'second step', tools: [] });
    expect(other[0]?.messages.map((m) => m.role)).toEqual(['assistant', 'tool']);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('stopWhen ends the run after a step that called tools', async () => {
    const seen: ModelRequest[] = [];
    const agent = createAgent({
      model: adder(seen),
      invoker: invoker(),
      stopWhen: ({ toolMessages }) => toolMessages.some((m) => m.name === 'add'),
    });
    const result = await agent.run('add');
    expect(result).toMatchObject({ stopReason: 'stop-when', steps: 1 });
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
    expect(seen).toHaveLength(1);
  });

  it('a tool prepareStep leaves out is not run when the model calls it, and its plan cannot lift an approval', async () => {
    const ran: Parameters<Ran>[0][] = [];
    const note = () =>
      new ToolInvoker({ inlineTools: [add({ ran: (r) => ran.push(r) }), deleteNote({ ran: (r) => ran.push(r) })] });
    // The model calls delete_note (which needs a person's approval) whatever it is offered.
    const model = scriptedModel((messages) =>
      messages.at(-1)?.role === 'tool'
        ? { text: String(messages.at(-1)?.content) }
        : { toolCalls: [{ name: 'delete_note', args: { key: 'k' } }] },
    );
    const left = await createAgent({
      model,
      invoker: note(),
      prepareStep: ({ tools }) => ({ tools: tools.filter((t) => t.name !== 'delete_note') }),
    }).run('clean up');
    expect(ran).toEqual([]);
    expect(left.pendingApprovals).toBeUndefined();
    expect(left.messages[2]).toMatchObject({ role: 'tool', name: 'delete_note', status: 'error' });
    expect(String(left.messages[2]?.content)).toContain(
      "Model called unknown tool 'delete_note'. Available tools: add",
    );
    // A copy of its spec without needsApproval is only what the model reads: the call still waits.
    const copied = await createAgent({
      model,
      invoker: note(),
      prepareStep: ({ tools }) => ({ tools: tools.map((t) => ({ ...t, needsApproval: false })) }),
    }).run('clean up');
    expect(ran).toEqual([]);
    expect(copied).toMatchObject({ stopReason: 'approval', pendingApprovals: [{ name: 'delete_note' }] });
  });

  it('a prepareStep that returns something else fails the run with a TypeError', async () => {
    const agent = createAgent({ model: adder([]), invoker: invoker(), prepareStep: () => 'fast' as never });
    await expect(agent.run('add')).rejects.toThrow(/prepareStep returned `'fast'`/);
  });
});
