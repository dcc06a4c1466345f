// `arrived()`: a round trip to the frame's thread over a port, which the pool waits for before it
// judges a worker stuck in a call (WorkerHandle.stop). That a stuck worker's last messages come in
// before the answer is what Chromium does in practice (ports promise order only within one); a
// test cannot make them late on purpose (they come in before any other word of the frame's), so
// this one checks the round trip itself: answered in order, from before the frame is loaded, and
// never left waiting. Each wait is bounded: a frame's first start took seconds on loaded cores.
import { afterEach, expect, it } from 'vitest';
import { SandboxedFrame } from './sandboxed-frame';

const CSP = "default-src 'none'; script-src 'unsafe-inline' blob:; worker-src blob: data:";

let frame: SandboxedFrame | undefined;
afterEach(() => frame?.close());

/** 'resolved' once `promise` is, or 'waiting' after 10 s. */
const within = (promise: Promise<unknown>) =>
  Promise.race([promise.then(() => 'resolved'), new Promise((r) => setTimeout(() => r('waiting'), 10_000))]);

it("answers each ask in order, from before the frame's script runs", async () => {
  frame = new SandboxedFrame({ csp: CSP, title: 'arrivals' });
  const order: number[] = [];
  // Asked before the frame's script runs: the echo port waits with the rest, and answers then.
  const asks = Promise.all([1, 2, 3].map((n) => frame?.arrived().then(() => order.push(n))));
  expect(await within(asks)).toBe('resolved');
  expect(order).toEqual([1, 2, 3]);
});

it.each(['dies', 'closes'] as const)(
  'lets go of whoever waits when the frame %s, and of its workers; answers at once after',
  async (end) => {
    frame = new SandboxedFrame({ csp: CSP, title: 'arrivals' });
    const worker = frame.spawn(new MessageChannel().port2, 'onmessage = () => {}');
    expect(await within(worker.arrived())).toBe('resolved');
    // A frame whose thread will never answer (its process gone, say).
    const waiting = [frame.arrived(), worker.arrived()];
    if (end === 'dies') frame.die('its process stopped answering');
    else frame.close();
    expect(await within(Promise.all(waiting))).toBe('resolved');
    expect(await within(frame.arrived())).toBe('resolved');
    expect(await within(worker.arrived())).toBe('resolved');
  },
);

it("lets go after 2 s when the frame's thread never answers (here its script never runs)", async () => {
  // A policy with no script-src: the frame's own script is refused, so nothing will ever echo.
  frame = new SandboxedFrame({ csp: "default-src 'none'", title: 'arrivals' });
  const waiting = frame.arrived();
  expect(
    await Promise.race([waiting.then(() => 'resolved'), new Promise((r) => setTimeout(() => r('waiting'), 500))]),
  ).toBe('waiting');
  expect(await within(waiting)).toBe('resolved');
});
