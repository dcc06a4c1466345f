import { afterEach, describe, expect, it } from 'vitest';
import type { CallRequest, PageToWorker } from './protocol';
import { WorkerHandle } from './worker-handle';

/** A handle over a stand-in worker that records what the page posts to it. */
function handle() {
  const posted: PageToWorker[] = [];
  const worker = {
    addEventListener() {},
    postMessage: (message: PageToWorker) => posted.push(structuredClone(message)),
    terminate() {},
  } as unknown as Worker;
  const h = new WorkerHandle(worker, { network: { mode: 'deny' } }, { message() {}, failure() {} }, 60_000);
  posted.length = 0; // its hello
  return { h, posted };
}

const request = (id: number): CallRequest => ({ id, toolCallId: `call_${id}`, name: 'add', args: { a: id } });
const tick = () => new Promise<void>((resolve) => setTimeout(resolve));

describe('WorkerHandle', () => {
  const open: WorkerHandle[] = [];
  afterEach(() => {
    for (const h of open.splice(0)) h.terminate();
  });

  it("posts the cancels of one tick in one message, before the tick's next message", async () => {
    const { h, posted } = handle();
    open.push(h);
    for (let id = 1; id <= 1_000; id++) h.cancel(id);
    await tick();
    // One message, not a thousand: each was a message to another process, all in one task.
    expect(posted).toEqual([{ t: 'cancel', ids: Array.from({ length: 1_000 }, (_, i) => i + 1) }]);
    posted.length = 0;
    h.cancel(7);
    h.post({ t: 'stop' });
    expect(posted).toEqual([{ t: 'cancel', ids: [7] }, { t: 'stop' }]);
    await tick();
    expect(posted).toHaveLength(2);
  });

  it('leaves out of the batch the calls withdrawn before it was posted', async () => {
    const { h, posted } = handle();
    open.push(h);
    for (let id = 1; id <= 5; id++) h.send(request(id));
    expect(h.withdraw(2)).toBe('unsent');
    expect(h.withdraw(4)).toBe('unsent');
    expect(h.withdraw(9)).toBe('absent');
    await tick();
    expect(posted).toEqual([{ t: 'calls', calls: [request(1), request(3), request(5)] }]);
    // Numbered as posted: the worker's started count reads against these.
    expect([...h.calls].map(([id, d]) => [id, d.seq])).toEqual([
      [1, 0],
      [3, 1],
      [5, 2],
    ]);
    expect(h.withdraw(3)).toBe('sent');
    // Every call of a tick withdrawn: nothing is posted.
    h.send(request(6));
    h.withdraw(6);
    await tick();
    expect(posted).toHaveLength(1);
  });
});
