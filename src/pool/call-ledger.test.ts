import { describe, expect, it, vi } from 'vitest';
import { CallLedger } from './call-ledger';
import type { ToolResult } from './tool-result';

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

  it('tells of an abort only for calls not settled yet, and lets go of the signal as each settles', () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
    const onAbort = vi.fn();
    const ledger = new CallLedger(onAbort);
    const options = { signal: controller.signal };
    const a = ledger.open(
      toolCall('a'),
      options,
      10,
      () => {},
      () => {},
    );
    const b = ledger.open(
      toolCall('b'),
      options,
      10,
      () => {},
      () => {},
    );
    const c = ledger.open(
      toolCall('c'),
      options,
      10,
      () => {},
      () => {},
    );
    // One listener for the three: a turn's calls share its signal, and a listener each made
    // adding and removing them cost time in the square of their number (Chromium).
    expect(add).toHaveBeenCalledTimes(1);
    ledger.settle(a, undefined, result('a'));
    expect(remove).not.toHaveBeenCalled(); // b and c still watch
    controller.abort('stop');
    expect(onAbort.mock.calls).toEqual([
      [b, 'stop'],
      [c, 'stop'],
    ]);
    // Settled before the abort: its listener is removed.
    const other = new AbortController();
    const removeOther = vi.spyOn(other.signal, 'removeEventListener');
    const d = ledger.open(
      toolCall('d'),
      { signal: other.signal },
      10,
      () => {},
      () => {},
    );
    ledger.settle(d, undefined, result('d'));
    expect(removeOther).toHaveBeenCalledTimes(1); // its last call settled
    expect(remove).not.toHaveBeenCalled(); // a one-time listener, gone with the abort
  });

  it('lets go of a signal once all of its calls settled, and watches it again for a later call', () => {
    const controller = new AbortController();
    const add = vi.spyOn(controller.signal, 'addEventListener');
    const remove = vi.spyOn(controller.signal, 'removeEventListener');
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
    expect(remove).toHaveBeenCalledTimes(1);
    expect(remove.mock.calls[0]?.[1]).toBe(add.mock.calls[0]?.[1]);
    const c = open('c');
    expect(add).toHaveBeenCalledTimes(2);
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
