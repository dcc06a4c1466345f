import { afterEach, describe, expect, it, vi } from 'vitest';
import { CallClock } from './call-clock';

const culprit = (n: number) => ({ toolCallId: `call_${n}`, toolName: 'spin' });

/** A clock whose grace is 500 ms, with spies for what it tells. */
function clock() {
  const ignoredAbort = vi.fn();
  return { clock: new CallClock<{ timer: undefined }, string>(500, () => {}, ignoredAbort), ignoredAbort };
}

describe('CallClock: the grace of cancelled calls', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('gives the calls a worker is told to stop in one tick one timer, and blames the first still running', async () => {
    vi.useFakeTimers();
    const set = vi.spyOn(globalThis, 'setTimeout');
    const { clock: c, ignoredAbort } = clock();
    for (let n = 1; n <= 1_000; n++) c.abandon(n, 'w1', culprit(n));
    c.abandon(1_001, 'w2', culprit(1_001));
    // One timer per worker, not one per call: stopping a turn of 10,000 calls set 10,000 at once.
    expect(set).toHaveBeenCalledTimes(2);
    c.answered(1);
    c.answered(2);
    vi.advanceTimersByTime(499);
    expect(ignoredAbort).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(ignoredAbort.mock.calls).toEqual([
      ['w1', culprit(3)],
      ['w2', culprit(1_001)],
    ]);
    // Blamed once: the calls of that grace are no longer watched.
    vi.advanceTimersByTime(10_000);
    expect(ignoredAbort).toHaveBeenCalledTimes(2);
  });

  it('blames no one when every call stopped in time, or when the worker is stopped anyway', () => {
    vi.useFakeTimers();
    const { clock: c, ignoredAbort } = clock();
    c.abandon(1, 'w1', culprit(1));
    c.abandon(2, 'w1', culprit(2));
    c.abandon(3, 'w2', culprit(3));
    c.answered(2);
    c.answered(1);
    c.forget('w2');
    vi.advanceTimersByTime(1_000);
    expect(ignoredAbort).not.toHaveBeenCalled();
  });

  it('starts a new grace for calls stopped in a later tick', async () => {
    vi.useFakeTimers();
    const { clock: c, ignoredAbort } = clock();
    c.abandon(1, 'w1', culprit(1));
    await Promise.resolve(); // the tick ends
    vi.advanceTimersByTime(300);
    c.abandon(2, 'w1', culprit(2));
    c.answered(1);
    vi.advanceTimersByTime(499);
    expect(ignoredAbort).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(ignoredAbort.mock.calls).toEqual([['w1', culprit(2)]]);
  });
});
