import { describe, expect, it, vi } from 'vitest';
import { CallLedger } from './pool-call';
import type { ToolResult } from './pool-options';

const toolCall = (id: string) => ({ id, name: 'add', args: { a: 1 } });
const result = (toolCallId: string): ToolResult => ({ toolCallId, name: 'add', content: '2', kind: 'json' });

/** A ledger and a call opened in it, with spies for the caller's promise. */
function opened(options = {}) {
  const onAbort = vi.fn();
  const ledger = new CallLedger(onAbort);
  const resolve = vi.fn();
  const reject = vi.fn();
  const call = ledger.open(toolCall('c1'), options, 1000, resolve, reject);
  return { ledger, call, resolve, reject, onAbort };
}

describe('CallLedger', () => {
  it('numbers calls in order and keeps them until they settle', () => {
    const ledger = new CallLedger(() => {});
    const a = ledger.open(
      toolCall('a'),
      {},
      10,
      () => {},
      () => {},
    );
    const b = ledger.open(
      toolCall('b'),
      {},
      10,
      () => {},
      () => {},
    );
    expect(b.id).toBe(a.id + 1);
    expect(a).toMatchObject({ state: 'queued', settled: false, worker: undefined, kills: 0, timeoutMs: 10 });
    expect(ledger.get(a.id)).toBe(a);
    expect(ledger.all()).toEqual([a, b]);
    ledger.settle(a, undefined, result('a'));
    expect(ledger.get(a.id)).toBeUndefined();
    expect(ledger.all()).toEqual([b]);
    expect(ledger.size).toBe(1);
  });

  it('settles a call once: a second settlement, either way, does nothing', () => {
    const { ledger, call, resolve, reject } = opened();
    ledger.settle(call, undefined, result('c1'));
    ledger.settle(call, new Error('late'));
    ledger.settle(call, undefined, result('c1'));
    expect(resolve).toHaveBeenCalledTimes(1);
    expect(reject).not.toHaveBeenCalled();
    expect(call.settled).toBe(true);
  });

  it("rejects with the signal's own reason when one is given, else with the error", () => {
    const first = opened();
    first.ledger.settle(first.call, new Error('wrapped'), undefined, 'just a string');
    expect(first.reject).toHaveBeenCalledWith('just a string');
    const second = opened();
    const error = new Error('boom');
    second.ledger.settle(second.call, error);
    expect(second.reject).toHaveBeenCalledWith(error);
  });

  it('tells of an abort only for calls not settled yet: a turn sharing one signal, and a call settled before its abort', () => {
    const controller = new AbortController();
    const onAbort = vi.fn();
    const ledger = new CallLedger(onAbort);
    const open = (id: string, signal: AbortSignal) =>
      ledger.open(
        toolCall(id),
        { signal },
        10,
        () => {},
        () => {},
      );
    // A turn's three calls share its signal: aborting it stops the two still running, in order.
    const [a, b, c] = ['a', 'b', 'c'].map((id) => open(id, controller.signal));
    ledger.settle(a as ReturnType<typeof open>, undefined, result('a'));
    controller.abort('stop');
    expect(onAbort.mock.calls).toEqual([
      [b, 'stop'],
      [c, 'stop'],
    ]);
    // Settled before its signal aborts: there is nothing left to cancel.
    const other = new AbortController();
    const d = open('d', other.signal);
    ledger.settle(d, undefined, result('d'));
    other.abort('too late');
    expect(onAbort).toHaveBeenCalledTimes(2);
  });

  it('a signal outlives its calls: its abort reaches only the calls still open, one opened after the others settled included', () => {
    const controller = new AbortController();
    const onAbort = vi.fn();
    const ledger = new CallLedger(onAbort);
    const open = (id: string) =>
      ledger.open(
        toolCall(id),
        { signal: controller.signal },
        10,
        () => {},
        () => {},
      );
    const a = open('a');
    const b = open('b');
    ledger.settle(b, undefined, result('b'));
    ledger.settle(a, undefined, result('a'));
    const c = open('c');
    const d = open('d');
    ledger.settle(d, undefined, result('d'));
    controller.abort('late');
    expect(onAbort.mock.calls).toEqual([[c, 'late']]);
  });

  it('skips a call that a sibling settled while the abort was being handed out', () => {
    const controller = new AbortController();
    const ledger = new CallLedger((call) => {
      // Handling the first call's abort settles the second (a pool might, dispatching).
      for (const other of ledger.all()) ledger.settle(other, new Error(`aborted with ${call.toolCall.id}`));
      seen.push(call.toolCall.id);
    });
    const seen: string[] = [];
    ledger.open(
      toolCall('a'),
      { signal: controller.signal },
      10,
      () => {},
      () => {},
    );
    ledger.open(
      toolCall('b'),
      { signal: controller.signal },
      10,
      () => {},
      () => {},
    );
    controller.abort();
    expect(seen).toEqual(['a']);
  });
});
