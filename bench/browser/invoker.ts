/**
 * One model turn of N trivial calls: through the ToolInvoker (workers), through bare
 * pool.callMany (the anchor: what the invoker adds), and through LangGraph's ToolNode in the
 * page's own thread (the reference users know).
 */
import { AIMessage as LangChainAIMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import * as z from 'zod';
import { ToolInvoker } from '../../src/invoker/tool-invoker';
import { aiMessage } from '../../src/messages/constructors';
import { createWorkerPool, type WorkerPool } from '../../src/pool/worker-pool';
import { type BenchCase, time } from '../case';
import poolToolsMiniUrl from '../workers/pool-tools-mini.worker.ts?worker&url';

/**
 * Turns per sample: a sample lasts 40–60 ms, long enough to take in the garbage collections a
 * steady stream of turns causes (with 30 turns of 100 calls, a sample missed some of them and
 * the ratio swung between 0.84 and 1.18 from run to run).
 */
const turnsFor = (size: number) => (size >= 100 ? 100 : 400);
// Sealed, the default: what an app's agent gets.
const worker = poolToolsMiniUrl;

/**
 * One warm pool for the invoker and its callMany anchor, sampled alternately: what the ratio
 * shows is the invoker's own cost, not which of two pools happened to be faster.
 */
let shared: Promise<WorkerPool> | undefined;
function warmPool(): Promise<WorkerPool> {
  shared ??= (async () => {
    const pool = createWorkerPool({ worker, size: 2 });
    await pool.warm();
    await pool.callMany(Array.from({ length: 100 }, (_, i) => ({ id: `w${i}`, name: 'noop', args: { i } })));
    return pool;
  })();
  return shared;
}

const calls = (size: number, turn: number) =>
  Array.from({ length: size }, (_, i) => ({ id: `t${turn}_${i}`, name: 'noop', args: { i } }));

function cases(size: number): BenchCase[] {
  const TURNS = turnsFor(size);
  return [
    {
      name: `pool/callmany-${size}`,
      unit: 'ms',
      note: `one turn of ${size} trivial calls through bare pool.callMany (warm pool of 2), mean of ${TURNS} turns`,
      async setup() {
        const pool = await warmPool();
        let turn = 0;
        return {
          sample: async () =>
            (await time(async () => {
              for (let t = 0; t < TURNS; t++) await pool.callMany(calls(size, turn++));
            })) / TURNS,
        };
      },
    },
    {
      name: `invoker/turn-${size}`,
      unit: 'ms',
      anchor: `pool/callmany-${size}`,
      target: { max: 1.1 },
      repeat: 25, // a turn lasts well under a millisecond: more pairs, a steadier median
      note: `one AI message of ${size} trivial calls through ToolInvoker.run (interceptor chain, events, ToolMessages, state merge) over the same pool`,
      async setup() {
        const pool = await warmPool();
        const invoker = await ToolInvoker.create({ pool });
        let turn = 0;
        return {
          sample: async () =>
            (await time(async () => {
              for (let t = 0; t < TURNS; t++) await invoker.run(aiMessage({ toolCalls: calls(size, turn++) }));
            })) / TURNS,
        };
      },
    },
    {
      name: `peer/langgraph-toolnode-${size}`,
      unit: 'ms',
      anchor: `invoker/turn-${size}`,
      ...(size === 100 ? { target: { min: 1 } } : {}),
      note: `LangGraph JS ToolNode running the same turn in the page's own thread (ratio = ToolNode ÷ Moat's invoker: ≥ 1 means isolation costs nothing)`,
      setup() {
        const noop = tool(async ({ i }: { i: number }) => String(i), {
          name: 'noop',
          description: 'Return i.',
          schema: z.object({ i: z.number() }),
        });
        const node = new ToolNode([noop]);
        let turn = 0;
        return {
          sample: async () =>
            (await time(async () => {
              for (let t = 0; t < TURNS; t++) {
                await node.invoke({
                  messages: [new LangChainAIMessage({ content: '', tool_calls: calls(size, turn++) })],
                });
              }
            })) / TURNS,
        };
      },
    },
  ];
}

export const invokerCases: BenchCase[] = [...cases(10), ...cases(100)];
