/**
 * A model turn of 10,000 tool calls (issue #41, item 7): the longest task it makes on the page,
 * and how long it takes, through a sealed pool with its defaults (`createWorkerPool({ worker:
 * url })`), by bare `pool.callMany` and by the invoker's stream. The floor is 10,000 messages
 * carrying the same call requests to a worker and back, one message each.
 */
import { createAgent } from '../../src/agent/agent';
import { ToolInvoker } from '../../src/invoker/tool-invoker';
import { aiMessage } from '../../src/messages/constructors';
import { scriptedModel } from '../../src/models/scripted-model';
import { createWorkerPool, type WorkerPool } from '../../src/pool/worker-pool';
import { createMemoryCheckpointer } from '../../src/store/checkpointer';
import { type BenchCase, time } from '../case';
import poolToolsMiniUrl from '../workers/pool-tools-mini.worker.ts?worker&url';
import { echoWorker } from './anchors';

const CALLS = 10_000;

/**
 * One warm sealed pool with its defaults, shared by the cases of a page (each case gets a fresh
 * page); `wide`: one whose workers take every call of the turn at once (`concurrency`).
 */
const pools = new Map<boolean, Promise<WorkerPool>>();
function warmPool(wide = false): Promise<WorkerPool> {
  let pool = pools.get(wide);
  if (!pool) {
    pool = (async () => {
      const pool = createWorkerPool({ worker: poolToolsMiniUrl, ...(wide ? { concurrency: CALLS } : {}) });
      await pool.warm();
      await pool.callMany(Array.from({ length: 100 }, (_, i) => ({ id: `w${i}`, name: 'noop', args: { i } })));
      return pool;
    })();
    pools.set(wide, pool);
  }
  return pool;
}

let round = 0;
const turnCalls = () => {
  const r = round++;
  return Array.from({ length: CALLS }, (_, i) => ({ id: `t${r}_${i}`, name: 'noop', args: { i } }));
};

/** The longest main-thread task while `fn` runs (0: none of 50 ms or more, the least the browser reports). */
async function longestTask(fn: () => Promise<void>): Promise<number> {
  const tasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) tasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  await fn();
  // Entries are delivered after their task: let the last ones arrive.
  await new Promise((resolve) => setTimeout(resolve, 50));
  observer.disconnect();
  return Math.max(0, ...tasks);
}

/** Every call of the turn settled once, each with its own result: else the figure means nothing. */
function checkSettled(ids: string[], expected: string[]): void {
  if (ids.length !== expected.length || new Set(ids).size !== expected.length)
    throw new Error(`${ids.length} settlements (${new Set(ids).size} calls) for a turn of ${expected.length}`);
}

/** The turn through bare callMany. */
async function callMany(pool: WorkerPool): Promise<void> {
  const calls = turnCalls();
  const outcomes = await pool.callMany(calls);
  const ok = outcomes.filter((o) => o.status === 'fulfilled').map((o) => o.value.toolCallId);
  checkSettled(
    ok,
    calls.map((c) => c.id),
  );
}

/** The turn through the invoker's stream, every event read. */
async function invokerStream(invoker: ToolInvoker): Promise<void> {
  const calls = turnCalls();
  const finished: string[] = [];
  let messages = 0;
  for await (const event of invoker.stream(aiMessage({ toolCalls: calls }))) {
    if (event.type === 'tool-finished') finished.push(event.toolCallId);
    else if (event.type === 'tool-error') throw event.error;
    else if (event.type === 'done') messages = event.messages.length;
  }
  checkSettled(
    finished,
    calls.map((c) => c.id),
  );
  if (messages !== CALLS) throw new Error(`done carried ${messages} messages for ${CALLS} calls`);
}

/**
 * The turn through the invoker's stream, stopped once a hundred calls have finished: the rest
 * are cancelled (on their worker, or before they reach it).
 */
async function stoppedTurn(invoker: ToolInvoker): Promise<void> {
  const calls = turnCalls();
  const controller = new AbortController();
  const ended = new Set<string>();
  try {
    for await (const event of invoker.stream(aiMessage({ toolCalls: calls }), { signal: controller.signal })) {
      if (event.type === 'tool-finished' || event.type === 'tool-error') ended.add(event.toolCallId);
      if (ended.size === 100) controller.abort(new Error('stop'));
    }
  } catch (error) {
    if ((error as Error).message !== 'stop') throw error;
  }
  if (ended.size !== CALLS) throw new Error(`${ended.size} calls ended of ${CALLS}`);
}

/**
 * One agent step whose model asks for the turn's calls (a scripted model: each call's arguments
 * in one piece), then a last step of text; every event read, the thread checkpointed.
 */
async function agentTurn(pool: WorkerPool): Promise<void> {
  const model = scriptedModel(
    (messages) =>
      messages.at(-1)?.role === 'tool'
        ? { text: 'done' }
        : { toolCalls: turnCalls().map(({ id, name, args }) => ({ id, name, args })) },
    { chunkSize: 1_000 },
  );
  const agent = createAgent({ model, pool, checkpointer: createMemoryCheckpointer() });
  const finished = new Set<string>();
  for await (const event of agent.stream('go', { threadId: `wide-${round}` })) {
    if (event.type === 'tool-finished') finished.add(event.toolCallId);
    else if (event.type === 'tool-error') throw event.error;
  }
  if (finished.size !== CALLS) throw new Error(`${finished.size} calls finished of ${CALLS}`);
}

const LONGEST = `the longest main-thread task (PerformanceObserver longtask; 0: none of 50 ms or more) while a turn of ${CALLS.toLocaleString('en-US')} trivial calls runs through a warm sealed pool with its defaults (createWorkerPool({ worker: url }))`;

export const wideTurnCases: BenchCase[] = [
  {
    name: 'anchor/postmessage-10000-calls',
    unit: 'ms',
    repeat: 5,
    warmup: 1,
    note: `the floor: ${CALLS.toLocaleString('en-US')} call requests ({ id, toolCallId, name, args }) posted one message each to a plain worker that echoes each, until the last echo`,
    async setup() {
      const worker = await echoWorker();
      return {
        sample: () =>
          time(
            () =>
              new Promise<void>((resolve) => {
                let left = CALLS;
                worker.onmessage = () => {
                  if (--left === 0) resolve();
                };
                const r = round++;
                for (let i = 0; i < CALLS; i++)
                  worker.postMessage({
                    t: 'calls',
                    calls: [{ id: i, toolCallId: `t${r}_${i}`, name: 'noop', args: { i } }],
                  });
              }),
          ),
        teardown: () => worker.terminate(),
      };
    },
  },
  {
    name: 'pool/callmany-10000',
    unit: 'ms',
    anchor: 'anchor/postmessage-10000-calls',
    repeat: 5,
    warmup: 1,
    note: `one turn of ${CALLS.toLocaleString('en-US')} trivial calls through bare pool.callMany, a warm sealed pool with its defaults, until every call settled`,
    async setup() {
      const pool = await warmPool();
      return { sample: () => time(() => callMany(pool)) };
    },
  },
  {
    name: 'invoker/turn-10000',
    unit: 'ms',
    anchor: 'pool/callmany-10000',
    repeat: 5,
    warmup: 1,
    note: `one AI message of ${CALLS.toLocaleString('en-US')} trivial calls through ToolInvoker.stream over the same pool, every event read, until done`,
    async setup() {
      const pool = await warmPool();
      const invoker = await ToolInvoker.create({ pool });
      return { sample: () => time(() => invokerStream(invoker)) };
    },
  },
  {
    name: 'pool/callmany-10000-longest-task',
    unit: 'ms',
    target: { max: 200, of: 'median' },
    repeat: 5,
    warmup: 1,
    note: `${LONGEST}, by bare pool.callMany; target ≤ 200 ms`,
    async setup() {
      const pool = await warmPool();
      return { sample: () => longestTask(() => callMany(pool)) };
    },
  },
  {
    name: 'invoker/turn-10000-longest-task',
    unit: 'ms',
    target: { max: 200, of: 'median' },
    repeat: 5,
    warmup: 1,
    note: `${LONGEST}, by ToolInvoker.stream, every event read; target ≤ 200 ms`,
    async setup() {
      const pool = await warmPool();
      const invoker = await ToolInvoker.create({ pool });
      return { sample: () => longestTask(() => invokerStream(invoker)) };
    },
  },
  {
    name: 'invoker/turn-10000-wide-longest-task',
    unit: 'ms',
    target: { max: 200, of: 'median' },
    repeat: 5,
    warmup: 1,
    note: `${LONGEST.replace('with its defaults', 'whose worker takes all of them at once (concurrency: 10,000)')}, by ToolInvoker.stream, every event read; target ≤ 200 ms`,
    async setup() {
      const pool = await warmPool(true);
      const invoker = await ToolInvoker.create({ pool });
      return { sample: () => longestTask(() => invokerStream(invoker)) };
    },
  },
  {
    name: 'agent/turn-10000-longest-task',
    unit: 'ms',
    target: { max: 200, of: 'median' },
    repeat: 5,
    warmup: 1,
    note: `${LONGEST}, by createAgent (a scripted model's step of those calls, each started as its arguments close, a memory checkpointer), every event read; target ≤ 200 ms. The step reads the model's parts and the checkpointer copies the thread's 20,001 messages in slices of 25 ms, the page running between them (before: 103-191 ms, the scripted model's whole answer with the calls it started in one task, then the save in another)`,
    async setup() {
      const pool = await warmPool();
      return { sample: () => longestTask(() => agentTurn(pool)) };
    },
  },
  {
    name: 'invoker/turn-10000-stopped-longest-task',
    unit: 'ms',
    target: { max: 200, of: 'median' },
    repeat: 5,
    warmup: 1,
    note: `${LONGEST.replace('with its defaults', 'whose worker takes all of them at once (concurrency: 10,000)')}, by ToolInvoker.stream, stopped (its signal aborted) once a hundred calls have finished; target ≤ 200 ms`,
    async setup() {
      const pool = await warmPool(true);
      const invoker = await ToolInvoker.create({ pool });
      return { sample: () => longestTask(() => stoppedTurn(invoker)) };
    },
  },
];
