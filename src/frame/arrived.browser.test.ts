// A worker stuck in a call cannot say what it started, and its last words may still be crossing
// from the frame's process: `arrived()` resolves once they are in. What the pool's stop of a stuck
// worker relies on (WorkerHandle.stop).
import { afterEach, expect, it } from 'vitest';
import { SandboxedFrame } from './sandboxed-frame';

const CSP = "default-src 'none'; script-src 'unsafe-inline' blob:; worker-src blob: data:";

/**
 * A worker that, asked, posts `n` messages of 1 MB each, then throws (which its frame's thread
 * hears, and tells the page: so the page knows when the posting has ended) and spins for good.
 */
const BURST_THEN_STUCK = `onmessage = (e) => {
  const port = e.ports[0];
  port.onmessage = (m) => {
    for (let i = 0; i < m.data; i++) port.postMessage(i + 'x'.repeat(1024 * 1024));
    setTimeout(() => { for (;;) {} });
    throw new Error('posted');
  };
};`;

let frame: SandboxedFrame | undefined;
afterEach(() => frame?.close());

it("resolves after everything a stuck worker posted before it: a round trip to the frame's thread", async () => {
  frame = new SandboxedFrame({ csp: CSP, title: 'arrivals' });
  const channel = new MessageChannel();
  const worker = frame.spawn(channel.port2, BURST_THEN_STUCK);
  const N = 64;
  let received = 0;
  channel.port1.onmessage = () => void received++;
  const posted = new Promise<void>((resolve) => {
    worker.onBroken = () => resolve();
  });
  channel.port1.postMessage(N);
  // The worker has posted everything (its frame's thread heard it throw after), and much of it
  // may still be crossing to the page's process.
  await posted;
  await frame.arrived();
  expect(received).toBe(N);
});

it('resolves at once for a closed frame, and in order for many asks', async () => {
  frame = new SandboxedFrame({ csp: CSP, title: 'arrivals' });
  const order: number[] = [];
  // Asked before the frame's script runs: the echo port waits with the rest, and answers then.
  await Promise.all([1, 2, 3].map((n) => frame?.arrived().then(() => order.push(n))));
  expect(order).toEqual([1, 2, 3]);
  const waiting = frame.arrived();
  frame.close();
  await waiting;
  await frame.arrived();
});
