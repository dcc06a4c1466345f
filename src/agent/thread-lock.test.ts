// The in-realm lock (Node has no Web Locks); the browser tests take the Web Locks path.
import { describe, expect, it } from 'vitest';
import { ThreadBusyError } from '../errors/thread-busy-error';
import { lockThread, threadLockName } from './thread-lock';

/** Every pending promise callback has run (a macrotask turn: not a wait for time). */
const settled = () => new Promise((resolve) => setImmediate(resolve));

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
    const first = await track('order', 'a', order);
    const second = track('order', 'b', order);
    const third = track('order', 'c', order);
    await settled();
    expect(order).toEqual(['a']);
    first();
    (await second)();
    await settled();
    expect(order).toEqual(['a', 'b', 'c']);
    (await third)();
    // Free again: taken at once.
    (await lockThread('order'))();
  });

  it('keeps threads apart from each other', async () => {
    const one = await lockThread('x');
    const other = await lockThread('y');
    other();
    one();
  });

  it("fails at once with ThreadBusyError under ifBusy: 'fail', and takes a free thread", async () => {
    const held = await lockThread('busy');
    const refused = lockThread('busy', { ifBusy: 'fail' });
    await expect(refused).rejects.toBeInstanceOf(ThreadBusyError);
    await expect(refused).rejects.toThrow(/Thread 'busy' is busy/);
    await expect(refused).rejects.toMatchObject({ threadId: 'busy' });
    held();
    await settled();
    (await lockThread('busy', { ifBusy: 'fail' }))();
  });

  it('stops waiting when the signal aborts, and the turn passes to whoever waits behind', async () => {
    const order: string[] = [];
    const holder = await track('abort', 'a', order);
    const controller = new AbortController();
    const gaveUp = track('abort', 'b', order, controller.signal);
    const behind = track('abort', 'c', order);
    controller.abort(new Error('the person pressed stop'));
    await expect(gaveUp).rejects.toThrow('the person pressed stop');
    await settled();
    expect(order).toEqual(['a']);
    holder();
    (await behind)();
    expect(order).toEqual(['a', 'c']);
  });

  it('an aborted signal never takes the lock', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already stopped'));
    await expect(lockThread('pre', { signal: controller.signal })).rejects.toThrow('already stopped');
    (await lockThread('pre', { ifBusy: 'fail' }))();
  });
});
