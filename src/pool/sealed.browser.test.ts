import { afterEach, describe, expect, it, vi } from 'vitest';
import { call } from '../../test/pool-helpers';
import { probeTag } from '../../test/probe-hits';
import grantsAccessorUrl from '../../test/workers/grants-accessor.worker.ts?worker&url';
import importScriptsUrl from '../../test/workers/import-scripts.worker.ts?worker&url';
import networkToolsUrl from '../../test/workers/network.worker.ts?worker&url';
import toolsUrl from '../../test/workers/tools.worker.ts?worker&url';
import { createAgent } from '../agent/agent';
import { createChat } from '../chat/create-chat';
import { ToolExecutionError } from '../errors/tool-execution-error';
import { ToolOutputLimitError } from '../errors/tool-output-limit-error';
import { ToolTimeoutError } from '../errors/tool-timeout-error';
import { WorkerCrashedError } from '../errors/worker-crashed-error';
import { WorkerStartError } from '../errors/worker-start-error';
import { framedWorkers } from '../frame/framed-worker';
import { PageStoreHost } from '../frame/page-store-host';
import type { Message, ToolMessage } from '../messages/types';
import { scriptedModel } from '../models/scripted-model';
import { openIndexedDBStore } from '../store/indexeddb-store';
import { resultValue } from './pool-options';
import { createWorkerPool, type WorkerPool, type WorkerPoolOptions } from './worker-pool';

// Sealed tools, the default (`worker: url`): a sandboxed frame at an opaque origin, a process apart
// from the page. The test server sends no CORS headers: the page reads the tools module itself.

let pool: WorkerPool | undefined;
afterEach(async () => {
  await pool?.close();
  pool = undefined;
});

describe('a sealed pool (worker: url)', () => {
  it('serves the tools: specs, results, deltas, typed errors, time limits', async () => {
    pool = createWorkerPool({ worker: toolsUrl, size: 2, timeoutMs: 5_000 });
    const names = (await pool.specs()).map((s) => s.name);
    expect(names).toContain('add');
    expect(await pool.call(call('add', { a: 2, b: 3 }))).toMatchObject({ content: '5', kind: 'json' });
    const deltas: unknown[] = [];
    const ticks = await pool.call(call('ticks', { n: 3 }), { onDelta: (d) => deltas.push(d) });
    expect([deltas, ticks.content]).toEqual([[{ tick: 1 }, { tick: 2 }, { tick: 3 }], 'done after 3']);
    await expect(pool.call(call('fail', { message: 'no' }))).rejects.toBeInstanceOf(ToolExecutionError);
    await expect(pool.call(call('spin', { ms: 60_000 }), { timeoutMs: 300 })).rejects.toBeInstanceOf(ToolTimeoutError);
    expect(await pool.call(call('add', { a: 1, b: 1 }))).toMatchObject({ content: '2' });
    expect(pool.stats.restarted).toBe(1);
  });

  it('fails the calls of a frame whose process stops answering with WorkerCrashedError, then serves on a fresh one', async () => {
    // Swallow the frames' answers to the page's pings, as a dead process would (a listener
    // added before the pool's, which the window calls first).
    let deaf = false;
    const swallow = (event: MessageEvent) => {
      if (deaf && (event.data as { t?: string })?.t === 'pong') event.stopImmediatePropagation();
    };
    addEventListener('message', swallow);
    let outcome: unknown;
    try {
      pool = createWorkerPool({ worker: toolsUrl, size: 1, timeoutMs: 30_000 });
      expect(await pool.call(call('add', { a: 1, b: 2 }))).toMatchObject({ content: '3' });
      deaf = true;
      outcome = await pool.call(call('slow', { ms: 20_000 })).catch((e: Error) => e);
    } finally {
      removeEventListener('message', swallow);
    }
    expect(outcome).toBeInstanceOf(WorkerCrashedError);
    expect((outcome as Error).message).toMatch(
      /^The worker running 'slow' \(call call_\d+\) stopped: its frame's process stopped answering \(out of memory, most likely\)/,
    );
    expect(document.querySelectorAll('iframe[title="Moat tool worker"]')).toHaveLength(1);
    expect(await pool.call(call('add', { a: 2, b: 2 }))).toMatchObject({ content: '4' });
    expect(pool.stats.restarted).toBe(1);
  });

  it("gives a tool's image (drawn on an OffscreenCanvas, returned as a Blob) beside its text, to the next model request", async () => {
    pool = createWorkerPool({ worker: toolsUrl, size: 1, timeoutMs: 5_000 });
    const seen: Message[][] = [];
    const model = scriptedModel((messages) => {
      seen.push([...messages]);
      return messages.at(-1)?.role === 'tool'
        ? { text: 'A red square.' }
        : { toolCalls: [{ name: 'draw', args: { size: 4 } }] };
    });
    const { text } = await createAgent({ model, pool }).run('Draw something');
    expect(text).toBe('A red square.');
    const result = seen[1]?.at(-1) as ToolMessage;
    expect(result.content).toEqual([
      { type: 'text', text: 'A red square of 4 px' },
      { type: 'image', data: expect.stringMatching(/^iVBORw0KGgo/), mediaType: 'image/png' },
    ]);
    // The bytes are the canvas's: a 4×4 PNG.
    const [, image] = result.content as [unknown, { data: string }];
    const bitmap = await createImageBitmap(await (await fetch(`data:image/png;base64,${image.data}`)).blob());
    expect([bitmap.width, bitmap.height]).toEqual([4, 4]);
  });

  it('fails its calls with WorkerStartError when the tools module cannot be loaded, and says why', async () => {
    pool = createWorkerPool({ worker: '/no/such/tools.js', size: 1, timeoutMs: 5_000 });
    const outcome = await pool.call(call('add', { a: 1, b: 2 })).catch((e: Error) => e);
    expect(outcome).toBeInstanceOf(WorkerStartError);
    const { message } = outcome as Error;
    expect(message).toContain(
      `the tools module could not be loaded: Could not load the tools module ${location.origin}/no/such/tools.js: it was answered as 'text/html', not JavaScript.`,
    );
    // What to write instead, for each bundler.
    expect(message).toContain("with Vite, import toolsUrl from './tools.worker.ts?worker&url'");
  });

  it("fails its calls with a WorkerStartError naming webpack's setting when the bundle loads chunks by importScripts", async () => {
    pool = createWorkerPool({ worker: importScriptsUrl, size: 1, timeoutMs: 5_000 });
    const outcome = await pool.call(call('add', { a: 1, b: 2 })).catch((e: Error) => e);
    expect(outcome).toBeInstanceOf(WorkerStartError);
    const { message } = outcome as Error;
    expect(message).toContain('its bundle loads another script with importScripts, which a sealed worker cannot');
    expect(message).toContain('optimization.splitChunks.chunks: (chunk) => !chunk.hasRuntime()');
  });

  it('is the same pool by the name framedWorkers(url)', async () => {
    pool = createWorkerPool({ worker: framedWorkers(new URL(toolsUrl, location.href)), size: 1 });
    expect(await pool.call(call('add', { a: 20, b: 22 }))).toMatchObject({ content: '42' });
  });

  it('runs every worker of the pool in one frame', async () => {
    pool = createWorkerPool({ worker: toolsUrl, size: 3 });
    await Promise.all([1, 2, 3].map((n) => pool?.call(call('slow', { ms: 50 + n }))));
    expect(pool.stats.workers).toBe(3);
    expect(document.querySelectorAll('iframe[title="Moat tool worker"]')).toHaveLength(1);
  });

  it('removes its frames when closed', async () => {
    pool = createWorkerPool({ worker: toolsUrl, size: 2 });
    await Promise.all([pool.call(call('add', { a: 1, b: 2 })), pool.call(call('add', { a: 1, b: 3 }))]);
    expect(document.querySelectorAll('iframe[title="Moat tool worker"]').length).toBeGreaterThan(0);
    await pool.close();
    pool = undefined;
    // The frame goes in the task after its last worker (a restarted worker's replacement keeps it).
    await vi.waitFor(() => expect(document.querySelectorAll('iframe[title="Moat tool worker"]')).toHaveLength(0), {
      timeout: 1_000,
    });
  });
});

// What 'deny' closes is probed door by door in seal.browser.test.ts.
describe('a sealed pool and the network', () => {
  const server = probeTag();
  const probe = async (door: string, path: string, network: 'allow' | 'deny') => {
    pool = createWorkerPool({ worker: networkToolsUrl, size: 1, network, timeoutMs: 10_000 });
    return (await pool.call(call('probe', { door, url: server.url(path) }))).content;
  };

  it("under 'allow' reaches servers that answer an opaque origin (CORS)", async () => {
    expect(await probe('fetch', '/framed-ok', 'allow')).toMatch(/^reached/);
    expect(await server.hits()).toEqual(['GET /framed-ok']);
  });
});

describe("a sealed pool's store", () => {
  /** A database with a secret and a note in it, and a sealed pool on it. */
  async function poolOnSecrets(grants?: WorkerPoolOptions['grants'], worker = grantsAccessorUrl) {
    const name = `sealed-store-${crypto.randomUUID()}`;
    const page = await openIndexedDBStore(name);
    await page.put(['secrets'], 'api-key', 'sk-page-only');
    await page.put(['notes'], 'a', 'hello');
    const sealed = createWorkerPool({ worker, size: 1, store: name, ...(grants ? { grants } : {}) });
    pool = sealed;
    /** What 'peek', which declares no namespaces (the worker does not scope it), reads. */
    const ask = async (namespace: string[]) =>
      resultValue(await sealed.call(call('peek', { namespace, key: namespace[0] === 'secrets' ? 'api-key' : 'a' })));
    return { page, sealed, ask };
  }
  const NOTES = { store: [['notes']] };

  it('holds the realm to the namespaces the page granted its tools, all together', async () => {
    const { page, sealed, ask } = await poolOnSecrets({ note: NOTES });
    expect(await sealed.call(call('note', { key: 'b', text: 'kept' }))).toMatchObject({ content: 'kept' });
    expect((await page.get(['notes'], 'b'))?.value).toEqual({ text: 'kept' });
    expect(await ask(['secrets'])).toMatchObject({ error: { name: 'StorePermissionError' } });
    // What the page granted some tool, the realm reaches (its tools share it): 'peek' was granted nothing.
    expect(await ask(['notes'])).toMatchObject({ value: { value: 'hello' } });
    page.close();
  });

  it('serves no store to a module whose tools the page granted nothing, whatever they declare', async () => {
    const { page, sealed, ask } = await poolOnSecrets();
    await expect(sealed.call(call('note', { key: 'b', text: 'kept' }))).rejects.toThrow(
      /may not touch store namespace \["notes"\]. Allowed: \(none\)/,
    );
    expect(await ask(['notes'])).toMatchObject({ error: { name: 'StorePermissionError' } });
    expect(await page.get(['notes'], 'b')).toBeUndefined();
    page.close();
  });

  it("leaves the whole database to the realm when the page grants one of its tools 'all'", async () => {
    const { page, ask } = await poolOnSecrets({ peek: { store: 'all' } });
    expect(await ask(['secrets'])).toMatchObject({ value: { value: 'sk-page-only' } });
    page.close();
  });

  it('refuses what the page did not grant even asked over the store port itself', async () => {
    // As code in the tools' realm holding the port would ask, past every scope of the worker's.
    const name = `sealed-store-${crypto.randomUUID()}`;
    const page = await openIndexedDBStore(name);
    await page.put(['secrets'], 'api-key', 'sk-page-only');
    const host = new PageStoreHost(name);
    host.limitTo(async () => [['notes']]);
    const { port, stop } = host.link();
    const answer = await new Promise<{ error?: { name: string } }>((resolve) => {
      port.onmessage = (event) => resolve(event.data);
      port.postMessage({ id: 1, method: 'get', args: [['secrets'], 'api-key'] });
    });
    expect(answer.error).toMatchObject({ name: 'StorePermissionError' });
    stop();
    host.close();
    page.close();
  });

  it('a dependency with prototype accessors cannot widen store access or skip an approval', async () => {
    // Before grants, the page took the worker's word: the swallowed `store` fields left the
    // module the whole database, and the swallowed `needsApproval` let the agent run 'wipe'.
    const grants = { note: NOTES, wipe: { ...NOTES, needsApproval: true } };
    const { page, sealed, ask } = await poolOnSecrets(grants);
    const wipe = (await sealed.specs()).find((s) => s.name === 'wipe');
    expect(wipe).toMatchObject({ needsApproval: true });
    expect(await ask(['secrets'])).toMatchObject({ error: { name: 'StorePermissionError' } });
    expect(await ask(['notes'])).toMatchObject({ value: { value: 'hello' } });
    const model = scriptedModel(() => ({ toolCalls: [{ name: 'wipe', args: {} }] }));
    const result = await createAgent({ model, pool: sealed }).run('Wipe my notes');
    expect(result.stopReason).toBe('approval');
    expect(result.pendingApprovals?.map((c) => c.name)).toEqual(['wipe']);
    expect((await page.get(['notes'], 'a'))?.value).toBe('hello');
    page.close();
  });
});

// A hang guard, not a time limit: making and measuring 256 MiB takes 3 s alone and went past
// Vitest's 15 s beside test:loaded's two busy loops.
describe("a sealed pool's output, measured against the page's limits", { timeout: 60_000 }, () => {
  const MiB = 2 ** 20;

  it('fails a 256 MiB result and a 256 MiB delta with ToolOutputLimitError; the page lives and the next call works', async () => {
    pool = createWorkerPool({ worker: toolsUrl, size: 1 });
    const result = await settleCall(pool.call(call('flood', { resultMiB: 256 })));
    expect(result).toBeInstanceOf(ToolOutputLimitError);
    expect(result).toMatchObject({ limit: 'result', maxSize: 8 * MiB });
    const seen: number[] = [];
    const delta = await settleCall(
      pool.call(call('flood', { deltas: 3, eachMiB: 256 }), { onDelta: (d) => seen.push(String(d).length) }),
    );
    expect(delta).toMatchObject({ name: 'ToolOutputLimitError', limit: 'progress' });
    expect(seen).toEqual([]); // the caller never saw it
    expect(await pool.call(call('add', { a: 2, b: 2 }))).toMatchObject({ content: '4' });
  });

  it("adds up a call's progress: the delta that goes past maxProgressSize fails the call and stops it", async () => {
    pool = createWorkerPool({ worker: toolsUrl, size: 1, maxProgressSize: 4 * MiB });
    const seen: unknown[] = [];
    const outcome = await settleCall(
      pool.call(call('flood', { deltas: 1_000, eachMiB: 1 }), { onDelta: (d) => seen.push(d) }),
    );
    expect(outcome).toMatchObject({ name: 'ToolOutputLimitError', limit: 'progress', maxSize: 4 * MiB });
    expect(seen.length).toBeLessThanOrEqual(4);
    expect(await pool.call(call('add', { a: 1, b: 2 }))).toMatchObject({ content: '3' });
  });

  it("holds a turn's calls together to maxTurnSize: the agent reads the error, and the run goes on", async () => {
    pool = createWorkerPool({ worker: toolsUrl, size: 2 });
    const sent: Message[][] = [];
    const model = scriptedModel((messages) => {
      sent.push([...messages]);
      return messages.at(-1)?.role === 'tool'
        ? { text: 'Some of it was too much.' }
        : { toolCalls: Array.from({ length: 5 }, () => ({ name: 'flood', args: { resultMiB: 7 } })) };
    });
    const { text } = await createAgent({ model, pool }).run('Flood me');
    expect(text).toBe('Some of it was too much.');
    const results = (sent[1] ?? []).filter((m): m is ToolMessage => m.role === 'tool');
    expect(results).toHaveLength(5);
    // 5 × 7 MiB is past the turn's 32 MiB: the call that went over (and any after it) failed.
    const refused = results.filter((m) => m.status === 'error');
    expect(refused.length).toBeGreaterThanOrEqual(1);
    expect(refused[0]?.content).toMatch(/the output of this turn's calls together is more than the page accepts/);
    expect(results.filter((m) => m.status !== 'error').length).toBe(4);
  });

  it('keeps createChat alive through a call streaming 256 MiB deltas: the call fails with the typed error', async () => {
    pool = createWorkerPool({ worker: toolsUrl, size: 1 });
    const model = scriptedModel((messages) =>
      messages.at(-1)?.role === 'tool'
        ? { text: 'That was too much.' }
        : { toolCalls: [{ name: 'flood', args: { deltas: 4, eachMiB: 256 } }] },
    );
    const chat = createChat({ agent: createAgent({ model, pool }) });
    await chat.send('Flood the chat');
    const parts = chat.getSnapshot().messages.flatMap((m) => m.parts);
    const tool = parts.find((p) => p.type === 'tool');
    expect(tool).toMatchObject({ state: 'output-error', progress: [], error: { kind: 'output-limit' } });
    expect(parts.at(-1)).toMatchObject({ type: 'text', text: 'That was too much.' });
  });
});

/** A call's value, or the error it failed with. */
function settleCall<T>(p: Promise<T>): Promise<T | Error> {
  return p.catch((error: Error) => error);
}
