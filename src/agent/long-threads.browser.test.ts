// Long conversations in Chromium, every client against the wire-protocol server: a 200-turn
// thread with tools under a 4k-token window (the server refuses, in each provider's words, any
// request over it and any call parted from its result), a fallback on each fault class, budgets,
// and totals that survive a reload (threads in IndexedDB).
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tokensOf } from '../../test/model-server/context-window';
import { addScenario, type Fault, requestsOf, type Scenario } from '../../test/model-server/scenarios';
import { anthropic } from '../models/anthropic';
import { gemini } from '../models/gemini';
import { ollama } from '../models/ollama';
import { openAICompatible } from '../models/openai-compatible';
import type { ChatModel, HttpClientOptions } from '../models/types';
import { createWorkerPool, type WorkerPool } from '../pool/worker-pool';
import { openIndexedDBCheckpointer } from '../store/checkpointer';
import { createAgent } from './agent';
import type { AgentEvent } from './types';

const url = inject('modelServerUrl');
const KEY = 'long-key-7';
type Make = (model: string, extra?: HttpClientOptions) => ChatModel;
const clients: Record<string, Make> = {
  'openai-chat': (model, extra) => openAICompatible({ baseURL: `${url}/v1`, apiKey: KEY, model, ...extra }),
  'openai-responses': (model, extra) =>
    openAICompatible({ baseURL: `${url}/v1`, apiKey: KEY, model, api: 'responses', ...extra }),
  anthropic: (model, extra) => anthropic({ baseURL: url, apiKey: KEY, model, maxTokens: 256, ...extra }),
  gemini: (model, extra) => gemini({ baseURL: `${url}/v1beta`, apiKey: KEY, model, ...extra }),
  ollama: (model, extra) => ollama({ baseURL: url, model, ...extra }),
};
const scenario = (name: string, init: Omit<Scenario, 'id'>) =>
  addScenario(url, name === 'ollama' ? init : { apiKey: KEY, ...init }, `long-${name}`);

/** Every turn: a call to add, then an answer with its result and some length. */
const adding = (extra: Partial<Scenario> = {}): Omit<Scenario, 'id'> => ({
  pick: 'last-message',
  maxPiece: 1 << 16,
  turns: [
    { text: 'Adding.', toolCalls: [{ name: 'add', args: { a: 2, b: 3 } }] },
    { text: `The sum is {{results}}. ${'That is the answer to what you asked. '.repeat(4)}` },
  ],
  ...extra,
});

let pool: WorkerPool;
beforeAll(() => {
  pool = createWorkerPool({
    worker: () => new Worker(new URL('../../test/workers/agent-tools.worker.ts', import.meta.url), { type: 'module' }),
    size: 1,
    network: 'deny',
  });
});
afterAll(() => pool.close());

async function collect(iterable: AsyncIterable<AgentEvent>): Promise<AgentEvent[]> {
  const events: AgentEvent[] = [];
  for await (const e of iterable) events.push(e);
  return events;
}

describe.each(Object.keys(clients))('a 200-turn thread over %s', (name) => {
  const make = clients[name] as Make;
  it('fits a 4k-token window at every step: no 400, no orphaned call or result, nothing lost', async () => {
    const id = await scenario(name, adding({ contextWindow: 4_096 }));
    const dbName = `moat-long-${name}-${Math.random().toString(36).slice(2)}`;
    const checkpointer = openIndexedDBCheckpointer(dbName);
    const agent = createAgent({ model: make(id, { contextWindow: 4_096 }), pool, checkpointer });
    const threadId = 'long';
    for (let turn = 0; turn < 200; turn++) {
      const result = await agent.run(`Turn ${turn}: what is 2 + 3? ${'I would like to know. '.repeat(3)}`, {
        threadId,
      });
      expect(result.stopReason).toBe('end');
    }
    const requests = await requestsOf(url, id);
    expect(requests).toHaveLength(400);
    // The server answered every request (an orphan or a request over the window is its 400).
    expect(requests.filter((r) => r.answer !== 'stream').map((r) => r.answer)).toEqual([]);
    expect(Math.max(...requests.map((r) => tokensOf(r.body)))).toBeLessThanOrEqual(4_096);
    // The thread keeps all 200 exchanges; the requests near the end held a small part of it.
    const thread = await agent.thread(threadId);
    expect(thread?.messages).toHaveLength(800);
    expect(thread?.totals.steps).toBe(400);
    expect(JSON.stringify(requests.at(-1)?.body)).toContain('Turn 199');
    expect(JSON.stringify(requests.at(-1)?.body)).not.toContain('Turn 150');
    checkpointer.close();
    await new Promise((done) => {
      const req = indexedDB.deleteDatabase(dbName);
      req.onsuccess = req.onerror = req.onblocked = done;
    });
  }, 120_000);
});

describe('a fallback on each fault class', () => {
  /** A primary on `client` whose first attempts at the first turn fail with `faults`. */
  const flaky = async (client: string, faults: Fault[], extra?: HttpClientOptions) => {
    const init = adding();
    const [first, ...rest] = init.turns;
    const id = await scenario(client, { ...init, turns: [{ ...first, faults }, ...rest] });
    return (clients[client] as Make)(id, { maxRetries: 0, ...extra });
  };
  /** [what, the primary, whether it fails its second step too] */
  const cases: [string, () => Promise<ChatModel>, boolean][] = [
    [
      'a 429 past its Retry-After (openai-chat)',
      () =>
        flaky(
          'openai-chat',
          [
            { status: 429, retryAfter: 0 },
            { status: 429, retryAfter: 0 },
          ],
          { maxRetries: 1 },
        ),
      false,
    ],
    ['a 500 (openai-responses)', () => flaky('openai-responses', [{ status: 500 }]), false],
    ['a 529, overloaded (anthropic)', () => flaky('anthropic', [{ status: 529 }]), false],
    ['a 503 (gemini)', () => flaky('gemini', [{ status: 503 }]), false],
    [
      'no answer, a network error (ollama)',
      async () => ollama({ baseURL: 'http://127.0.0.1:9', model: 'gone', maxRetries: 0 }),
      true,
    ],
    [
      'a context its window refuses even fitted again (openai-chat)',
      async () =>
        (clients['openai-chat'] as Make)(await scenario('openai-chat', adding({ contextWindow: 30 })), {
          maxRetries: 0,
        }),
      true,
    ],
  ];
  it.each(cases)('%s: the next model makes the step', async (what, primaryOf, always) => {
    const second = await scenario('openai-chat', adding());
    const primary = await primaryOf();
    const agent = createAgent({
      model: primary,
      fallbackModels: [(clients['openai-chat'] as Make)(second)],
      pool,
      maxSteps: 2,
    });
    const events = await collect(agent.stream('What is 2 + 3?'));
    expect(events.at(-1)).toMatchObject({
      type: 'finish',
      stopReason: 'end',
      text: expect.stringContaining('The sum is 5'),
    });
    const retries = events.filter((e) => e.type === 'model-retry');
    expect(retries.at(-1)).toMatchObject({
      step: always ? 2 : 1,
      reason: what.includes('context') ? 'context-overflow' : 'unavailable',
      to: { modelId: second },
    });
    // Nothing of the first model's came before the switch: the step is the second's.
    expect(events.slice(0, events.indexOf(retries[0] as AgentEvent)).map((e) => e.type)).toEqual([]);
    // Each step starts with the first model again.
    const steps = events.filter((e) => e.type === 'step-finish');
    expect(steps.map((e) => e.type === 'step-finish' && e.model.modelId)).toEqual([
      second,
      always ? second : primary.modelId,
    ]);
    // Retry-After honoured: the client asked again once before the switch.
    if (what.startsWith('a 429'))
      expect((await requestsOf(url, primary.modelId)).map((r) => r.answer)).toEqual([429, 429, 'stream']);
  });
});

describe('usage that lasts', () => {
  it('budgets stop runs, and the totals survive a reload', async () => {
    const id = await scenario(
      'anthropic',
      adding({
        turns: adding().turns.map((t) => ({
          ...t,
          usage: { input: 1_000, output: 50, cacheRead: 400, cacheWrite: 100 },
        })),
      }),
    );
    const dbName = `moat-usage-${Math.random().toString(36).slice(2)}`;
    const prices = { [id]: { input: 3, output: 15, cachedInput: 0.3 } };
    const first = openIndexedDBCheckpointer(dbName);
    const agent = createAgent({ model: clients.anthropic?.(id) as ChatModel, pool, checkpointer: first, prices });
    const run = await agent.run('What is 2 + 3?', { threadId: 't' });
    expect(run.usage).toMatchObject({ inputTokens: 2_000, outputTokens: 100, cachedInputTokens: 800 });
    // 600 uncached input tokens at 3, 400 cached at 0.3, 50 output at 15, per million, twice.
    expect(run.cost).toBeCloseTo((2 * (600 * 3 + 400 * 0.3 + 50 * 15)) / 1e6, 12);
    first.close();
    // A reload: a new checkpointer on the same database, a new agent.
    const second = openIndexedDBCheckpointer(dbName);
    const again = createAgent({
      model: clients.anthropic?.(id) as ChatModel,
      pool,
      checkpointer: second,
      prices,
      budget: { threadTokens: 3_000 },
    });
    expect((await again.thread('t'))?.totals).toEqual({
      inputTokens: 2_000,
      outputTokens: 100,
      cachedInputTokens: 800,
      cacheWriteTokens: 200,
      reasoningTokens: 0,
      steps: 2,
      cost: run.cost,
    });
    const stopped = await again.run('And 4 + 4?', { threadId: 't' });
    expect(stopped).toMatchObject({ stopReason: 'budget', steps: 1, budget: { limit: 'threadTokens', max: 3_000 } });
    expect(stopped.totals.steps).toBe(3);
    second.close();
  });
});
