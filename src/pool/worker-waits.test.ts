import { afterEach, describe, expect, it, vi } from 'vitest';
import { afterQueuedMessages, idlePeriod } from './call-clock';

describe('idlePeriod', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('fires after one period when idle throughout', () => {
    vi.useFakeTimers();
    const late = vi.fn();
    idlePeriod(100, () => false, late);
    vi.advanceTimersByTime(99);
    expect(late).not.toHaveBeenCalled();
    vi.advanceTimersByTime(1);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('waits while busy, then for a whole period that begins and ends idle', () => {
    vi.useFakeTimers();
    let busy = true;
    const late = vi.fn();
    idlePeriod(100, () => busy, late);
    vi.advanceTimersByTime(300); // busy at every check
    expect(late).not.toHaveBeenCalled();
    busy = false;
    vi.advanceTimersByTime(100); // idle now, but the period began busy
    expect(late).not.toHaveBeenCalled();
    vi.advanceTimersByTime(100);
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('cancels', () => {
    vi.useFakeTimers();
    const late = vi.fn();
    idlePeriod(100, () => false, late)();
    vi.advanceTimersByTime(1000);
    expect(late).not.toHaveBeenCalled();
  });
});

describe('afterQueuedMessages', () => {
  it('runs after the messages already waiting for this thread', async () => {
    const order: string[] = [];
    const channel = new MessageChannel();
    channel.port2.onmessage = (e) => order.push(String(e.data));
    channel.port1.postMessage('first');
    channel.port1.postMessage('second');
    await new Promise<void>((resolve) =>
      afterQueuedMessages(() => {
        order.push('then');
        resolve();
      }),
    );
    channel.port2.close();
    expect(order).toEqual(['first', 'second', 'then']);
  });
});
