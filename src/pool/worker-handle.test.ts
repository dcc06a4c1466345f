import { afterEach, describe, expect, it } from 'vitest';
import type { CallRequest } from './protocol';
import { WorkerHandle } from './worker-handle';

type Request = { path: string[]; argumentList: { value: unknown }[] };

/** A handle over a stand-in worker that records what the page asks of it: each method and its argument. */
function handle() {
  const posted: [string, unknown][] = [];
  const worker = {
    addEventListener() {},
    postMessage: (message: Request) =>
      posted.push([message.path[0] as string, structuredClone(message.argumentList[0]?.value)]),
    terminate() {},
  } as unknown as Worker;
  const h = new WorkerHandle(worker, { network: { mode: 'deny' } }, { message() {}, failure() {} }, 60_000);
  posted.length = 0; // its configure
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
    expect(posted).toEqual([['cancel', Array.from({ length: 1_000 }, (_, i) => i + 1)]]);
    posted.length = 0;
    h.cancel(7);
    h.answerNetwork(1, true);
    expect(posted).toEqual([
      ['cancel', [7]],
      ['answer', 1],
    ]);
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
    expect(posted).toEqual([['calls', [request(1), request(3), request(5)]]]);
    // Numbered as posted: the worker's started count reads against these (two started: 1 and 3).
    h.reported(2);
    expect([1, 3, 5].map((id) => h.begun(id))).toEqual([true, true, false]);
    expect(h.withdraw(3)).toBe('sent');
    // Every call of a tick withdrawn: nothing is posted.
    h.send(request(6));
    h.withdraw(6);
    await tick();
    expect(posted).toHaveLength(1);
  });
});
