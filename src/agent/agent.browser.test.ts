// Full agent loops in Chromium: every model client against the wire-protocol server, tools in a
// worker pool, threads in IndexedDB.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addScenario, requestsOf, type Scenario } from '../../test/model-server/scenarios';
import { watchRuns } from '../../test/pool-helpers';
import { ModelHTTPError } from '../errors/model-http-error';
import { isToolMessage } from '../messages/predicates';
import type { Message, ToolMessage } from '../messages/types';
import { anthropic } from '../models/anthropic';
import { gemini } from '../models/gemini';
import { ollama } from '../models/ollama';
import { openAICompatible } from '../models/openai-compatible';
import type { ChatModel } from '../models/types';
import { createWorkerPool, type WorkerPool } from '../pool/worker-pool';
import { openIndexedDBCheckpointer } from '../store/checkpointer';
import { createAgent } from './agent';
import type { AgentEvent, AgentOptions } from './types';

const url = inject('modelServerUrl');
const KEY = 'browser-key-42';
const makePool = (size = 2) =>
  createWorkerPool({
    worker: () => new Worker(new URL('../../test/workers/agent-tools.worker.ts', import.meta.url), { type: 'module' }),
    size,
    network: 'deny',
  });

const clients: Record<string, { make: (model: string) => ChatModel; textArgs: boolean; streamsArgs: boolean }> = {
  'openai-chat': {
    make: (model) => openAICompatible({ baseURL: `${url}/v1`, apiKey: KEY, model, retryDelayMs: 5 }),
    textArgs: true,
    streamsArgs: true,
  },
  'openai-responses': {
    make: (model) => openAICompatible({ baseURL: `${url}/v1`, apiKey: KEY, model, api: 'responses', retryDelayMs: 5 }),
    textArgs: true,
    streamsArgs: true,
  },
  anthropic: {
    make: (model) => anthropic({ baseURL: url, apiKey: KEY, model, retryDelayMs: 5 }),
    textArgs: true,
    streamsArgs: true,
  },
  gemini: {
    make: (model) => gemini({ baseURL: `${url}/v1beta`, apiKey: KEY, model, retryDelayMs: 5 }),
    textArgs: false,
    streamsArgs: false,
  },
  ollama: { make: (model) => ollama({ baseURL: url, model, retryDelayMs: 5 }), textArgs: false, streamsArgs: false },
};

const results = (messages: readonly Message[]) =>
  messages.filter((m): m is ToolMessage => isToolMessage(m)).map((m) => [m.name, m.status, m.content]);

async function collect(iterable: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const e of iterable) events.push(e);
  return events;
}

describe.each(Object.keys(clients))('agent over %s', (name) => {
  const client = clients[name] as (typeof clients)[string];
  let pool: WorkerPool;
  beforeAll(() => {
    pool = makePool();
  });
  afterAll(() => pool.close());
  const scenario = (init: Omit<Scenario, 'id'>) =>
    addScenario(url, name === 'ollama' ? init : { apiKey: KEY, ...init }, `agent-${name}`);
  const agent = (model: string, options: Partial<AgentOptions> = {}) =>
    createAgent({ model: client.make(model), pool, ...options });

  it('parallel calls, then an answer made of their results', async () => {
    const id = await scenario({
      turns: [
        {
          text: 'Computing.',
          toolCalls: [
            { name: 'multiply', args: { a: 3, b: 12 } },
            { name: 'add', args: { a: 11, b: 49 } },
          ],
        },
        { text: 'The answers: {{results}}.' },
      ],
    });
    const events = await collect(agent(id).stream('What is 3 * 12? Also, what is 11 + 49?'));
    const finish = events.at(-1);
    expect(finish).toMatchObject({ type: 'finish', stopReason: 'end', text: 'The answers: 36, 60.', steps: 2 });
    const types = events.map((e) => e.type);
    expect(types.filter((t) => t === 'tool-started')).toHaveLength(2);
    expect(types.filter((t) => t === 'tool-finished')).toHaveLength(2);
    expect(types.filter((t) => t === 'step-finish')).toHaveLength(2);
    if (client.streamsArgs) expect(types.filter((t) => t === 'tool-input-delta').length).toBeGreaterThan(2);
    if (finish?.type === 'finish') expect(finish.usage.inputTokens).toBeGreaterThan(0);
  });

  if (client.streamsArgs) {
    it('starts the first call before the model has finished writing the second', async () => {
      const id = await scenario({
        delayMs: 5,
        maxPiece: 24,
        turns: [
          {
            toolCalls: [
              { name: 'add', args: { a: 1, b: 2 } },
              { name: 'add', args: { a: 30, b: 4000 } },
            ],
          },
          { text: 'done' },
        ],
      });
      const order: string[] = [];
      for await (const e of agent(id).stream('go')) {
        if (e.type === 'tool-started') order.push(`started ${JSON.stringify(e.args)}`);
        if (e.type === 'tool-input-start') order.push(`writing ${e.index}`);
      }
      expect(order.indexOf('started {"a":1,"b":2}')).toBeGreaterThan(-1);
      expect(order.indexOf('started {"a":1,"b":2}')).toBeLessThan(order.indexOf('writing 1'));
    });
  }

  it('a multi-step chain', async () => {
    const id = await scenario({
      turns: [
        { toolCalls: [{ name: 'multiply', args: { a: 3, b: 12 } }] },
        { toolCalls: [{ name: 'add', args: { a: 36, b: 4 } }] },
        { text: 'It is {{results}}.' },
      ],
    });
    const result = await agent(id).run('3 * 12, plus 4');
    expect(result).toMatchObject({ stopReason: 'end', text: 'It is 40.', steps: 3 });
    expect(results(result.messages).map((r) => r[2])).toEqual(['36', '40']);
  });

  it('an invalid call goes back to the model, which corrects it next step', async () => {
    const broken = client.textArgs
      ? { name: 'multiply', args: {}, rawArgs: '{"a": 3, "b": ' }
      : { name: 'multiply', args: { a: 'three', b: 12 } };
    const id = await scenario({
      turns: [
        { toolCalls: [broken] },
        { toolCalls: [{ name: 'multiply', args: { a: 3, b: 12 } }] },
        { text: '{{results}}' },
      ],
    });
    const result = await agent(id).run('3 * 12');
    expect(result.text).toBe('36');
    const [first, second] = results(result.messages);
    expect(first?.[1]).toBe('error');
    expect(first?.[2]).toMatch(/Please fix your mistakes/);
    expect(second).toEqual(['multiply', 'success', '36']);
    // What the model was told is in the request it got next.
    const [, next] = await requestsOf(url, id);
    expect(JSON.stringify(next?.body)).toContain('Please fix your mistakes');
  });

  it('a tool error reaches the model as an error result', async () => {
    const id = await scenario({
      turns: [{ toolCalls: [{ name: 'fail', args: {} }] }, { text: 'Tool said: {{results}}' }],
    });
    const events = await collect(agent(id).stream('break it'));
    expect(events.find((e) => e.type === 'tool-error')).toMatchObject({ error: { name: 'ToolExecutionError' } });
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      stopReason: 'end',
      text: expect.stringContaining('the disk is on fire'),
    });
  });

  it('a 429 is retried, then the run goes on', async () => {
    const id = await scenario({ turns: [{ text: 'fine', faults: [{ status: 429, retryAfter: 0 }] }] });
    expect((await agent(id).run('hi')).text).toBe('fine');
    expect((await requestsOf(url, id)).map((r) => r.answer)).toEqual([429, 'stream']);
  });

  it('a 500 that persists ends the run with a ModelHTTPError', async () => {
    const id = await scenario({
      turns: [{ text: 'never', faults: Array.from({ length: 6 }, () => ({ status: 500 })) }],
    });
    const events = await collect(agent(id).stream('hi'));
    expect(events.at(-1)).toMatchObject({
      type: 'error',
      error: { name: 'ModelHTTPError', status: 500, provider: expect.any(String) },
    });
    await expect(agent(id).run('hi')).rejects.toBeInstanceOf(ModelHTTPError);
  });

  it('an abort mid-stream stops the model and the tools; no further request; the checkpoint intact', async () => {
    const checkpointer = openIndexedDBCheckpointer(`abort-${name}-${Math.random()}`);
    const id = await scenario({
      delayMs: 5,
      maxPiece: 40,
      turns: [
        { text: 'hello' },
        {
          text: 'A long answer that the user will stop half-way through.',
          toolCalls: [{ name: 'slow', args: { ms: 2000 } }],
        },
        { text: 'never asked for' },
      ],
    });
    const a = agent(id, { checkpointer });
    await a.run('first', { threadId: 't' });
    const before = await checkpointer.get('t');
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    for await (const e of a.stream('second', { threadId: 't', signal: controller.signal })) {
      events.push(e);
      if (e.type === 'text-delta' && events.filter((x) => x.type === 'text-delta').length === 2) controller.abort();
    }
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'aborted' });
    expect(await checkpointer.get('t')).toEqual(before);
    // The model's stream was cut: the server saw the client hang up mid-body, and nothing after.
    await expect.poll(async () => (await requestsOf(url, id)).map((r) => r.hungUp ?? false)).toEqual([false, true]);
    checkpointer.close();
  });

  it('maxSteps ends a model that keeps calling tools', async () => {
    const call = { toolCalls: [{ name: 'add', args: { a: 1, b: 1 } }] };
    const id = await scenario({ turns: [call, call, call, call] });
    const result = await agent(id, { maxSteps: 2 }).run('loop');
    expect(result).toMatchObject({ stopReason: 'max-steps', steps: 2 });
    expect(await requestsOf(url, id)).toHaveLength(2);
  });

  it.each([
    ['granted', true, 'Deleted groceries'],
    ['denied', { approved: false, reason: 'I still need it' }, 'not approved: I still need it'],
  ] as const)('approval %s across a reload: runs once or never', async (_, decision, said) => {
    const db = `approvals-${name}-${Math.random()}`;
    const id = await scenario({
      turns: [
        {
          toolCalls: [
            { name: 'delete_note', args: { key: 'groceries' } },
            { name: 'add', args: { a: 2, b: 2 } },
          ],
        },
        { text: 'Outcome: {{results}}' },
      ],
    });
    const runs = await watchRuns('moat-agent-runs');
    const checkpointer = openIndexedDBCheckpointer(db);
    const events = await collect(agent(id, { checkpointer }).stream('delete my groceries note', { threadId: 'x' }));
    const request = events.find((e) => e.type === 'approval-request');
    expect(events.at(-1)).toMatchObject({ type: 'finish', stopReason: 'approval' });
    // Only add went to a worker: the call waiting for its approval did not.
    expect(events.flatMap((e) => (e.type === 'tool-started' ? [e.name] : []))).toEqual(['add']);
    checkpointer.close();

    // "Reload": a new pool (one worker, whose reports arrive in order), a new checkpointer on
    // the same database, a new agent.
    const pool2 = makePool(1);
    const checkpointer2 = openIndexedDBCheckpointer(db);
    const resumed = createAgent({ model: client.make(id), pool: pool2, checkpointer: checkpointer2 });
    const callId = request?.type === 'approval-request' ? request.toolCall.id : '';
    const result = await resumed.run({ approvals: { [callId]: decision } }, { threadId: 'x' });
    expect(result.stopReason).toBe('end');
    expect(result.text).toContain(said);
    expect(result.text).toContain('4');
    await expect(resumed.run({ approvals: { [callId]: true } }, { threadId: 'x' })).rejects.toThrow(/none is waiting/);
    // A last call on the same worker: once its report is in, any run of the call before it is too.
    const marker = `marker-${callId}`;
    await pool2.call({ id: marker, name: 'delete_note', args: { key: 'marker' } });
    await runs.arrived([marker]);
    expect(runs.runs.filter((x) => x === callId)).toHaveLength(decision === true ? 1 : 0);
    runs.stop();
    checkpointer2.close();
    pool2.close();
  });
});
