// A watched frame is dead only when nothing of its process speaks: its own thread may be slow to
// answer the page's pings while the process is busy with large messages under load, but a worker
// that talks shows the process alive. Silence of the whole process still means death.
import { afterEach, expect, it } from 'vitest';
import { SandboxedFrame } from './sandboxed-frame';

const CSP = "default-src 'none'; script-src 'unsafe-inline' blob:; worker-src blob: data:";
const DEAD_MS = 1_000;

/** A worker that, asked, sends `n` messages of 8 MB each, 300 ms apart, then says 'done' and nothing more. */
const STREAMER = `onmessage = (e) => {
  const port = e.ports[0];
  port.onmessage = (m) => {
    let i = 0;
    const next = () => {
      if (i++ === m.data) return port.postMessage('done');
      port.postMessage('x'.repeat(8 * 1024 * 1024 + i));
      setTimeout(next, 300);
    };
    next();
  };
};`;

let frame: SandboxedFrame | undefined;
const hogs: Worker[] = [];
/** The frame's answers to the page's pings are dropped, as if its own thread never got to them. */
let deaf = false;
const swallow = (event: MessageEvent) => {
  if (deaf && (event.data as { t?: string })?.t === 'pong') event.stopImmediatePropagation();
};
addEventListener('message', swallow);
afterEach(() => {
  frame?.close();
  for (const hog of hogs.splice(0)) hog.terminate();
  deaf = false;
});

it('is not declared dead while its worker sends large messages, though its own thread does not answer; then is, once all is silent', async () => {
  // Load: two busy threads beside the page.
  for (let i = 0; i < 2; i++) {
    const hog = new Worker(URL.createObjectURL(new Blob(['onmessage = () => { for (;;) {} }'])));
    hog.postMessage(0);
    hogs.push(hog);
  }
  frame = new SandboxedFrame({ csp: CSP, title: 'watched' });
  let death: string | undefined;
  frame.onDeath = (reason) => {
    death = reason;
  };
  const channel = new MessageChannel();
  const worker = frame.spawn(channel.port2, STREAMER);
  const port = channel.port1;
  port.addEventListener('message', () => worker.heard());
  let received = 0;
  const done = new Promise<void>((resolve) => {
    port.onmessage = (event) => {
      if (event.data === 'done') resolve();
      else received++;
    };
  });
  frame.watch(true, DEAD_MS);
  deaf = true;
  // About 3 s of large messages: three times the time without an answer that means death.
  port.postMessage(10);
  await done;
  expect([received, death]).toEqual([10, undefined]);
  // Now nothing of the process speaks: dead within the limit (and a few pings).
  await expect.poll(() => death, { timeout: DEAD_MS + 4_000, interval: 100 }).toMatch(/stopped answering/);
});
