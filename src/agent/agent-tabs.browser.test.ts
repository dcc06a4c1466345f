// Two runs on one thread from two browsing contexts (this page and a same-origin iframe, as two tabs
// of the app): the origin's Web Locks keep them apart, the IndexedDB thread stays one chain of
// steps.
import { afterAll, describe, expect, it } from 'vitest';
import * as tabModule from '../../test/agent-tab';
import { openIndexedDBCheckpointer } from '../store/checkpointer';
import type { AgentResult } from './types';

type TabModule = typeof tabModule;

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** A same-origin iframe that loads the tab module itself: its own realm, its own copy of the agent's code. */
async function secondTab(): Promise<TabModule> {
  const frame = document.createElement('iframe');
  frame.srcdoc = '<!doctype html><title>second tab</title>';
  const loaded = new Promise((resolve) => frame.addEventListener('load', resolve, { once: true }));
  document.body.append(frame);
  await loaded;
  const url = new URL('../../test/agent-tab.ts', import.meta.url).href;
  // Evaluated by the frame: the module is loaded into the frame's own module map.
  const evaluate = (frame.contentWindow as unknown as { eval(code: string): Promise<TabModule> }).eval;
  return evaluate(`import(${JSON.stringify(url)})`);
}

const dbs: string[] = [];
afterAll(() => {
  for (const db of dbs) indexedDB.deleteDatabase(db);
});

describe('two tabs, one thread', () => {
  it('runs take turns across browsing contexts; the thread is one chain, each run starting from the last whole', async () => {
    const db = `moat-tabs-${crypto.randomUUID()}`;
    dbs.push(db);
    const other = await secondTab();
    // Not this page's module instance: only the origin's locks can keep the two apart.
    expect(other.lockThread).not.toBe(tabModule.lockThread);
    const log: string[] = [];
    const gate = deferred();
    const here = tabModule.tabAgent('here', db, (line) => log.push(line), gate.promise);
    const there = other.tabAgent('there', db, (line) => log.push(line), gate.promise);

    const first = here.run('first', 'shared');
    await expect.poll(() => log.length).toBe(1);
    const second = there.run('second', 'shared');
    // The second tab waits in the origin's queue for this thread's lock.
    await expect
      .poll(async () => (await navigator.locks.query()).pending?.map((l) => l.name))
      .toContain('moat:thread:shared');
    // ...and fails at once when asked to.
    await expect(there.run('third', 'shared', 'fail')).rejects.toMatch(/^ThreadBusyError: Thread 'shared' is busy/);
    gate.resolve();
    const [one, two] = (await Promise.all([first, second])).map((json) => JSON.parse(json) as AgentResult);
    expect(log).toEqual([
      "here answers 'first' seeing 1",
      "here answers 'first' seeing 3",
      "there answers 'second' seeing 5",
      "there answers 'second' seeing 7",
    ]);
    expect([one?.text, two?.text]).toEqual(['here is done with first', 'there is done with second']);

    const checkpointer = openIndexedDBCheckpointer(db);
    const steps = (await checkpointer.list('shared', { limit: 100 })).reverse();
    expect(steps.map((s) => [s.id, s.parentId])).toEqual([
      ['step-00000001', undefined],
      ['step-00000002', 'step-00000001'],
      ['step-00000003', 'step-00000002'],
      ['step-00000004', 'step-00000003'],
    ]);
    expect(steps.at(-1)?.messages.map((m) => m.role)).toEqual([
      ...['user', 'assistant', 'tool', 'assistant'],
      ...['user', 'assistant', 'tool', 'assistant'],
    ]);
    checkpointer.close();
    here.close();
    there.close();
  });
});
