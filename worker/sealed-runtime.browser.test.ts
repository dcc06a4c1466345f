// Moat's runtime in a sealed worker runs before any module of the tools: code evaluated before the
// tools module's moat-sdk/worker (a dependency imported first, or the module's own code before a late
// import of it) can neither take the page's port, nor read the page's messages, nor post to the
// page, nor rewrite the server's answers. Without the runtime first, early-thief.ts answers
// add(2, 2) with 5.
import { afterEach, describe, expect, it } from 'vitest';
import { sealedWorkers } from '../src/frame/framed-worker';
import type { WorkerToPage } from '../src/pool/protocol';
import { createWorkerPool, type WorkerPool } from '../src/pool/worker-pool';
import { call } from '../test/pool-helpers';
import dependencyUrl from '../test/workers/early-dependency.worker.ts?worker&url';
import inlineUrl from '../test/workers/early-inline.worker.ts?worker&url';

let pool: WorkerPool | undefined;
let worker: Worker | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
  worker?.terminate();
  worker = undefined;
});

describe.each([
  ['a dependency imported before moat-sdk/worker', dependencyUrl],
  ["the tools module's own code, run before a late import of moat-sdk/worker", inlineUrl],
])('in a sealed worker, %s', (_, url) => {
  it('cannot take the port or answer for the tools: add(2, 2) is 4', async () => {
    pool = createWorkerPool({ worker: url, size: 1, timeoutMs: 10_000, startTimeoutMs: 10_000 });
    expect((await pool.call(call('add', { a: 2, b: 2 }))).content).toBe('4');
    expect((await pool.call(call('add', { a: 20, b: 22 }))).content).toBe('42');
    // It saw no port and none of the page's messages, and what it kept of postMessage is locked.
    expect(JSON.parse((await pool.call(call('report', {}))).content)).toMatchObject({
      post: 'threw TypeError',
      ports: 0,
      pageMessages: 0,
    });
  });

  it('sends the page nothing but the server’s own messages', async () => {
    // The worker driven by hand, as the pool does: every message that reaches the page is kept.
    worker = sealedWorkers(url, true)();
    const seen: WorkerToPage[] = [];
    let answered: (() => void) | undefined;
    const reportAnswered = new Promise<void>((resolve) => {
      answered = resolve;
    });
    worker.addEventListener('message', (event) => {
      const message = (event as MessageEvent).data as WorkerToPage;
      seen.push(message);
      if (message.t === 'out' && message.out.some((entry) => entry.id === 2 && 'result' in entry)) answered?.();
    });
    // The pool's requests, as Comlink's wrap sends them.
    const apply = (id: string, method: string, arg: unknown) => ({
      id,
      type: 'APPLY',
      path: [method],
      argumentList: [{ type: 'RAW', value: arg }],
    });
    worker.postMessage(apply('r1', 'configure', { network: { mode: 'deny' } }));
    worker.postMessage(apply('r2', 'calls', [{ id: 1, toolCallId: 'c1', name: 'add', args: { a: 2, b: 2 } }]));
    worker.postMessage(apply('r3', 'calls', [{ id: 2, toolCallId: 'c2', name: 'report', args: {} }]));
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      reportAnswered,
      new Promise((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer to 'report' in 10 s; seen: ${JSON.stringify(seen)}`)),
          10_000,
        );
      }),
    ]);
    clearTimeout(timer);
    // Messages on one port arrive in order: anything forged before the last answer is here.
    const entries = seen.flatMap((m) => (m.t === 'out' ? m.out : []));
    // The answer to configure, then each call's results (calls are one-way: not answered).
    expect(seen.map((m) => ('t' in m ? m.t : (m as { id: string }).id))).toEqual(['r1', 'out', 'out']);
    expect(entries.map((e) => [e.id, 'result' in e ? e.result.content.slice(0, 1) : 'error'])).toEqual([
      [1, '4'],
      [2, '{'],
    ]);
  });
});
