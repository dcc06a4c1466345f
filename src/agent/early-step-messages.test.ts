import { describe, expect, it } from 'vitest';
import type { CallSoFar } from '../invoker/tool-turn';
import { aiMessage, toolMessage } from '../messages/constructors';
import type { ToolCall } from '../messages/types';
import { earlyStepMessages } from './early-step-messages';

const call = (id: string, name = 'charge'): ToolCall => ({ id, name, args: { n: id } });
const result = (c: ToolCall, content: string, status: 'success' | 'error' = 'success') =>
  toolMessage({ toolCallId: c.id, name: c.name, content, status });

const [a, b, c, d] = [call('a'), call('b'), call('c'), call('d', 'delete_note')];

describe('earlyStepMessages', () => {
  it('keeps nothing when no call started: the thread stays as it was', () => {
    const sofar: CallSoFar[] = [{ call: a, started: false }];
    expect(earlyStepMessages({ text: 'Let me', calls: [a], sofar, answered: [] })).toBeUndefined();
    expect(earlyStepMessages({ text: 'Hello', calls: [], sofar: [], answered: [] })).toBeUndefined();
    // A refusal alone ran nothing either.
    const refused = result(d, 'not approved', 'error');
    expect(earlyStepMessages({ text: '', calls: [d], sofar: [], answered: [refused] })).toBeUndefined();
  });

  it('keeps the answer so far with the calls that started, each with its result, in the model order', () => {
    const sofar: CallSoFar[] = [
      { call: b, message: result(b, 'charged b'), started: true },
      { call: a, started: true }, // cut off mid-way
      { call: c, started: false }, // never handed to its tool
    ];
    const kept = earlyStepMessages({ text: 'Charging.', calls: [a, b, c], sofar, answered: [] });
    expect(kept?.ai).toEqual(aiMessage({ content: 'Charging.', toolCalls: [a, b] }));
    expect(kept?.toolMessages.map((m) => [m.toolCallId, m.status])).toEqual([
      ['a', 'error'],
      ['b', 'success'],
    ]);
    expect(kept?.toolMessages[0]?.content).toMatch(
      /interrupted while it ran .* not run again; its effects, if any, are unknown/,
    );
    expect(kept?.toolMessages[1]?.content).toBe('charged b');
  });

  it("keeps the agent's own answers (a refusal) beside calls that ran, and an error result as it is", () => {
    const refused = result(d, 'not approved', 'error');
    const failed = result(b, 'Error: card declined', 'error');
    const sofar: CallSoFar[] = [
      { call: a, message: result(a, 'ok'), started: true },
      { call: b, message: failed, started: true },
    ];
    const kept = earlyStepMessages({ text: '', calls: [a, d, b], sofar, answered: [refused] });
    expect(kept?.ai.toolCalls.map((x) => x.id)).toEqual(['a', 'd', 'b']);
    expect(kept?.toolMessages).toEqual([result(a, 'ok'), refused, failed]);
  });

  it('keeps the whole answer when it had arrived (stopped while its tools ran), without its unrun calls', () => {
    const whole = aiMessage({
      content: 'Both.',
      toolCalls: [a, b],
      invalidToolCalls: [{ id: 'x', name: 'charge', args: '{', error: 'not JSON' }],
      stopReason: 'tool-calls',
      usage: { inputTokens: 10, outputTokens: 4 },
    });
    const sofar: CallSoFar[] = [
      { call: a, message: result(a, 'charged a'), started: true },
      { call: b, started: false },
    ];
    const kept = earlyStepMessages({ text: 'ignored', calls: whole.toolCalls, ai: whole, sofar, answered: [] });
    expect(kept?.ai).toEqual({ ...whole, toolCalls: [a], invalidToolCalls: [] });
    expect(kept?.toolMessages).toEqual([result(a, 'charged a')]);
  });
});
