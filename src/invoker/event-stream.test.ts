import { describe, expect, it } from 'vitest';
import { eventStream, followSignal } from './event-stream';

describe('eventStream', () => {
  it('hands over every event pushed, then ends when the run resolves', async () => {
    const stream = eventStream<number>('stopped', async (_c, push) => {
      push(1);
      await Promise.resolve();
      push(2);
      push(3);
    });
    const seen: number[] = [];
    for await (const n of stream) seen.push(n);
    expect(seen).toEqual([1, 2, 3]);
  });

  it('fails the read after the events pushed before a rejection', async () => {
    const failure = new Error('run failed');
    const iterator = eventStream<number>('stopped', async (_c, push) => {
      push(1);
      throw failure;
    })[Symbol.asyncIterator]();
    expect(await iterator.next()).toEqual({ done: false, value: 1 });
    await expect(iterator.next()).rejects.toBe(failure);
  });

  it('break aborts the run with an AbortError, waits for it, and drops what it pushes after', async () => {
    let reason: unknown;
    let finished = false;
    const stream = eventStream<number>('The reader left', async (controller, push) => {
      push(1);
      await new Promise((resolve) => controller.signal.addEventListener('abort', resolve));
      reason = controller.signal.reason;
      push(2);
      // The subject: a run that takes a task more to wind down, which break must wait for.
      await new Promise((resolve) => setTimeout(resolve, 5));
      finished = true;
    });
    const seen: number[] = [];
    for await (const n of stream) {
      seen.push(n);
      break;
    }
    expect(finished).toBe(true);
    expect(seen).toEqual([1]);
    expect(reason).toBeInstanceOf(DOMException);
    expect((reason as DOMException).name).toBe('AbortError');
    expect((reason as DOMException).message).toBe('The reader left');
  });
});

describe('followSignal', () => {
  it("aborts with the outer signal's reason, now or later, until unfollowed", () => {
    const early = new AbortController();
    early.abort('early');
    const a = new AbortController();
    followSignal(early.signal, a);
    expect(a.signal.reason).toBe('early');

    const outer = new AbortController();
    const b = new AbortController();
    const c = new AbortController();
    followSignal(outer.signal, b);
    followSignal(outer.signal, c)();
    outer.abort('later');
    expect(b.signal.reason).toBe('later');
    expect(c.signal.aborted).toBe(false);
    expect(() => followSignal(undefined, c)()).not.toThrow();
  });
});
