// The in-realm lock (Node has no Web Locks); the browser tests take the Web Locks path.
import { describe, expect, it } from 'vitest';
import { ThreadBusyError } from '../errors/thread-busy-error';
import { lockThread, threadLockName } from './thread-lock';

/** Every pending promise callback has run (a macrotask turn: not a wait for time). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

/**
 * A lock request's outcome once every pending callback has run: the release if it was granted,
 * `'waiting'` if not. A test asserts on it rather than awaiting a lock that may never come.
 */
async function now(request: Promise<() => void>): Promise<(() => void) | 'waiting'> {
  return Promise.race([request, settled().then(() => 'waiting' as const)]);
}

/** Granted by now, or the test fails saying so. */
async function granted(request: Promise<() => void>): Promise<() => void> {
  const outcome = await now(request);
  expect(outcome, 'the lock was not granted').toBeTypeOf('function');
  return outcome as () => void;
}

/** Who holds the lock, in the order they got it. */
function track(threadId: string, who: string, order: string[], signal?: AbortSignal) {
  return lockThread(threadId, signal ? { signal } : {}).then((release) => {
    order.push(who);
    return release;
  });
}

describe('lockThread (in this realm)', () => {
  it('names the lock after the thread', () => {
    expect(threadLockName('t-1')).toBe('moat:thread:t-1');
  });

  it('gives the thread to one holder at a time, in the order asked', async () => {
    const order: string[] = [];
    const first = await granted(track('order', 'a', order));
    const second = track('order', 'b', order);
    const third = track('order', 'c', order);
    expect(await now(second)).toBe('waiting');
    expect(await now(third)).toBe('waiting');
    expect(order).toEqual(['a']);
    first();
    const releaseSecond = await granted(second);
    expect(await now(third)).toBe('waiting');
    expect(order).toEqual(['a', 'b']);
    releaseSecond();
    (await granted(third))();
    expect(order).toEqual(['a', 'b', 'c']);
    // Free again once the last holder's release has run: taken at once.
    await settled();
    (await granted(lockThread('order', { ifBusy: 'fail' })))();
  });

  it('keeps threads apart from each other', async () => {
    const one = await granted(lockThread('x'));
    const other = await granted(lockThread('y', { ifBusy: 'fail' }));
    other();
    one();
  });

  it("fails at once with ThreadBusyError under ifBusy: 'fail', and takes a free thread", async () => {
    const held = await granted(lockThread('busy'));
    const refused = lockThread('busy', { ifBusy: 'fail' });
    await expect(refused).rejects.toBeInstanceOf(ThreadBusyError);
    await expect(refused).rejects.toThrow(/Thread 'busy' is busy/);
    await expect(refused).rejects.toMatchObject({ threadId: 'busy' });
    held();
    await settled();
    (await granted(lockThread('busy', { ifBusy: 'fail' })))();
  });

  it('stops waiting when the signal aborts, and the turn passes to whoever waits behind', async () => {
    const order: string[] = [];
    const holder = await granted(track('abort', 'a', order));
    const controller = new AbortController();
    const gaveUp = track('abort', 'b', order, controller.signal);
    const behind = track('abort', 'c', order);
    controller.abort(new Error('the person pressed stop'));
    await expect(gaveUp).rejects.toThrow('the person pressed stop');
    expect(await now(behind)).toBe('waiting');
    expect(order).toEqual(['a']);
    holder();
    (await granted(behind))();
    expect(order).toEqual(['a', 'c']);
  });

  it('an aborted signal never takes the lock', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already stopped'));
    await expect(lockThread('pre', { signal: controller.signal })).rejects.toThrow('already stopped');
    (await granted(lockThread('pre', { ifBusy: 'fail' })))();
  });
});
