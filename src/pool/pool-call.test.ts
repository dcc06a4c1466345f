import { describe, expect, it, vi } from 'vitest';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { type CallState, PoolCall } from './pool-call';
import type { WorkerHandle } from './worker-handle';

const worker = { name: 'w' } as unknown as WorkerHandle;
const timeout = new ToolTimeoutError({ toolName: 'add', toolCallId: 'c1', timeoutMs: 5 });

/** A call brought to `state` by legal moves, with spies for its caller's promise and its timer. */
function callIn(state: CallState) {
  const resolve = vi.fn();
  const reject = vi.fn();
  const call = new PoolCall(1, { id: 'c1', name: 'add', args: {} }, {}, 10, resolve, reject);
  const arm = vi.fn(() => setTimeout(() => {}, 60_000));
  if (state !== 'queued') call.send(worker);
  if (state === 'started' || state === 'settled') call.posted(20, arm);
  if (state === 'settled') call.settle(undefined, { toolCallId: 'c1', name: 'add', content: '2', kind: 'json' });
  resolve.mockClear();
  return { call, resolve, reject, arm };
}

const moves = {
  send: (call: PoolCall) => call.send(worker),
  posted: (call: PoolCall) => call.posted(30, () => undefined),
  overdue: (call: PoolCall) => call.overdue(timeout),
  requeue: (call: PoolCall) => call.requeue(false),
  settle: (call: PoolCall) => call.settle(new Error('aborted')),
};

describe('PoolCall', () => {
  // The state each move leads to from each state; 'throws': a bug in the pool, not a race.
  // Settling a settled call is the one no-op: a result, an abort and a deadline race for it.
  const table: [CallState, keyof typeof moves, CallState | 'throws'][] = [
    ['queued', 'send', 'sent'],
    ['queued', 'posted', 'throws'],
    ['queued', 'overdue', 'throws'],
    ['queued', 'requeue', 'throws'],
    ['queued', 'settle', 'settled'],
    ['sent', 'send', 'throws'],
    ['sent', 'posted', 'started'],
    ['sent', 'overdue', 'sent'],
    ['sent', 'requeue', 'queued'],
    ['sent', 'settle', 'settled'],
    ['started', 'send', 'throws'],
    ['started', 'posted', 'throws'],
    ['started', 'overdue', 'started'],
    ['started', 'requeue', 'queued'],
    ['started', 'settle', 'settled'],
    ['settled', 'send', 'throws'],
    ['settled', 'posted', 'throws'],
    ['settled', 'overdue', 'throws'],
    ['settled', 'requeue', 'throws'],
    ['settled', 'settle', 'settled'],
  ];

  it.each(table)('from %s, %s: %s', (from, move, to) => {
    const { call } = callIn(from);
    if (to === 'throws') {
      expect(() => moves[move](call)).toThrow(`cannot ${move} a call that is ${from}`);
      expect(call.state).toBe(from);
    } else {
      moves[move](call);
      expect(call.state).toBe(to);
    }
  });

  it('settles its caller once, whatever comes after', () => {
    const { call, resolve, reject } = callIn('started');
    expect(call.settle(new Error('first'))).toBe(true);
    expect(call.settle(undefined, { toolCallId: 'c1', name: 'add', content: '2', kind: 'json' })).toBe(false);
    expect(reject).toHaveBeenCalledTimes(1);
    expect(resolve).not.toHaveBeenCalled();
    expect(call.worker).toBe(worker); // where it ran, for an answer that comes late
  });

  it('starts its deadline when posted, and lets go of it when it settles or goes back to the queue', () => {
    const clear = vi.spyOn(globalThis, 'clearTimeout');
    try {
      for (const end of ['settle', 'requeue'] as const) {
        const { call, arm } = callIn('started');
        expect(arm).toHaveBeenCalledWith(call, 20);
        expect(call.timeoutMs).toBe(20);
        const timer = arm.mock.results[0]?.value;
        moves[end](call);
        expect(clear).toHaveBeenCalledWith(timer);
      }
    } finally {
      clear.mockRestore();
    }
  });

  it('going back to the queue forgets its worker and a timeout it had there; only a re-run counts a kill', () => {
    const { call } = callIn('started');
    call.overdue(timeout);
    expect(call.timedOut).toBe(timeout);
    call.requeue(false); // it never started there: its clock starts again elsewhere
    expect(call).toMatchObject({ state: 'queued', worker: undefined, timedOut: undefined, kills: 0 });
    call.send(worker);
    call.requeue(true); // it ran, and runs once more (its tool is idempotent)
    expect(call.kills).toBe(1);
  });
});
