// `arrived()`: a round trip to the frame's thread over a port, which the pool waits for before it
// judges a worker stuck in a call (WorkerHandle.stop). That a stuck worker's last messages come in
// before the answer is an ordering Chromium keeps between two processes; a test cannot make them
// late on purpose (they come in before any other word of the frame's), so this one checks the
// round trip itself: answered in order, from before the frame is loaded, and never left waiting.
import { afterEach, expect, it } from 'vitest';
import { SandboxedFrame } from './sandboxed-frame';

const CSP = "default-src 'none'; script-src 'unsafe-inline' blob:; worker-src blob: data:";

let frame: SandboxedFrame | undefined;
afterEach(() => frame?.close());

/** 'resolved' once `promise` is, or 'waiting' after a second. */
const within = (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => 'resolved'), new Promise((r) => setTimeout(() => r('waiting'), 1_000))]);

it("answers each ask in order, from before the frame's script runs", async () => {
  frame = new SandboxedFrame({ csp: CSP, title: 'arrivals' });
  const order: number[] = [];
  // Asked before the frame's script runs: the echo port waits with the rest, and answers then.
  const asks = Promise.all([1, 2, 3].map((n) => frame?.arrived().then(() => order.push(n))));
  expect(await within(asks)).toBe('resolved');
  expect(order).toEqual([1, 2, 3]);
});

it('lets go of whoever waits when the frame closes, and answers at once after', async () => {
  frame = new SandboxedFrame({ csp: CSP, title: 'arrivals' });
  expect(await within(frame.arrived())).toBe('resolved');
  // A frame whose thread never answers again (closed here: its process gone, say).
  const waiting = frame.arrived();
  frame.close();
  expect(await within(waiting)).toBe('resolved');
  expect(await within(frame.arrived())).toBe('resolved');
});
