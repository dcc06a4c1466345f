/**
 * Context fitting's costs: fitting a 10,000-message thread to a window (each message counted for
 * the first time, as in the first step after a reload), whether the time grows with the messages
 * kept rather than with the thread, and one agent step with fitting on against the same step done
 * by hand (the anchor of `agent/step-overhead`).
 */
import { fitContext } from '../../src/agent/fit-context';
import { aiMessage, toolMessage, userMessage } from '../../src/messages/constructors';
import type { Message } from '../../src/messages/types';
import { type BenchCase, time } from '../case';
import { agentStep, STEPS } from './agent';

const THREAD = 10_000;

/** A thread of `n` messages: exchanges of a user message, a call, its result and an answer, 200 characters each. */
function thread(n: number): Message[] {
  const out: Message[] = [];
  const text = 'word '.repeat(40);
  for (let i = 0; out.length < n; i++) {
    const id = `call_${i}`;
    out.push(
      userMessage(`${i} ${text}`),
      aiMessage({ content: text, toolCalls: [{ id, name: 'noop', args: { i } }] }),
      toolMessage({ toolCallId: id, name: 'noop', content: text }),
      aiMessage(text),
    );
  }
  out.length = n;
  // End on a user message, as a step does.
  out.push(userMessage('and now?'));
  return out;
}

/** Tokens a message of `thread` is estimated at (200 characters / 4 + 4, the call's a little more). */
const PER_MESSAGE = 56;

/**
 * Fit a fresh 10,000-message thread (new objects each sample: nothing counted yet) to a window
 * that keeps `kept` of its messages; ms per fit, or µs per message kept with `perKept`.
 */
function fitCase(name: string, kept: number, perKept: boolean, extra: Partial<BenchCase> = {}): BenchCase {
  return {
    name,
    unit: 'ms',
    repeat: 21,
    ...extra,
    setup() {
      return {
        sample: async () => {
          const messages = thread(THREAD);
          const window = kept * PER_MESSAGE + 1_000;
          let fitted = 0;
          const ms = await time(() => {
            fitted = fitContext(messages, { window, reserve: 1_000 }).messages.length;
          });
          if (fitted < kept * 0.8 || fitted > kept * 1.2) throw new Error(`kept ${fitted}, not about ${kept}`);
          return perKept ? (ms * 1000) / fitted : ms;
        },
      };
    },
  };
}

// The step with fitting on: the same turn, pool and bytes as agent/step-overhead (bench/browser/agent.ts).
export const contextCases: BenchCase[] = [
  fitCase('context/fit-10k-thread', 2_000, false, {
    target: { max: 5, of: 'median' },
    note: 'fitContext of a fresh 10,000-message thread (calls and results, 200 characters a message, none counted before) to a window keeping about 2,000 of them, ms per step',
  }),
  fitCase('context/fit-kept-500', 500, true, {
    note: 'µs per message kept, fitting the same 10,000-message thread to a window keeping about 500 (the anchor of the linearity figure)',
  }),
  fitCase('context/fit-kept-4000', 4_000, true, {
    anchor: 'context/fit-kept-500',
    target: { max: 1.5 },
    note: 'µs per message kept at about 4,000 kept ÷ at about 500, the same 10,000-message thread: 1 = linear in the messages kept (the messages left out cost nothing)',
  }),
  {
    name: 'context/step-overhead-fitting',
    unit: 'ms',
    anchor: 'agent/by-hand-step',
    target: { max: 1.1 },
    warmup: 20,
    note: `agent/step-overhead with fitting on (the model given a 128k-token contextWindow): the same turn of 10 calls, openAICompatible over the same bytes, maxSteps 1 (mean of ${STEPS}); both sides warmed up for 20 samples`,
    setup: () => agentStep(128_000),
  },
];
