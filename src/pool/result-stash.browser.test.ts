// The result stash under a real race: a worker writes (and clears) as fast as it can while the
// page locks and reads at a random moment. Every record read must be whole, and no write may
// begin after the lock.
import { describe, expect, it } from 'vitest';
import { OUT_TEXT, STASH } from './protocol';
import { newStashMemory, readStash, stashOf } from './result-stash';

describe.runIf(crossOriginIsolated)('the result stash, written by a worker while the page reads', () => {
  it('never hands the page a torn record, and begins no write after the lock', async () => {
    for (let round = 0; round < 12; round++) {
      const worker = new Worker(new URL('../../test/workers/stash-writer.worker.ts', import.meta.url), {
        type: 'module',
      });
      await new Promise((resolve) => {
        worker.onmessage = resolve;
      });
      const memory = newStashMemory(4096); // small: the worker clears it often
      const stash = stashOf(memory);
      let writing!: () => void;
      const underWay = new Promise<void>((resolve) => {
        writing = resolve;
      });
      const done = new Promise<number>((resolve) => {
        worker.onmessage = (event) => (event.data === 'writing' ? writing() : resolve(event.data as number));
      });
      worker.postMessage(memory);
      // The lock at a random moment while the worker writes (not before it has begun: on a busy
      // machine its thread may take longer than the wait to pick up the memory).
      await underWay;
      await new Promise((resolve) => setTimeout(resolve, 1 + Math.random() * 20));
      const read = readStash(stash);
      const written = await done;
      worker.terminate();
      expect(written).toBeGreaterThan(0);
      for (let i = 0; i < read.length; i += 3) {
        const [kind, id, text] = [read[i], read[i + 1] as number, read[i + 2]];
        expect(kind).toBe(OUT_TEXT);
        expect(text).toBe(`r${id}:${'é'.repeat(id % 37)}`);
      }
      // Consecutive ids from where the last clear left off.
      const ids = read.filter((_, i) => i % 3 === 1) as number[];
      expect(ids).toEqual(ids.map((_, i) => (ids[0] as number) + i));
      // After the lock no write begins: at most the one under way then (its thread descheduled
      // past the page's wait) is published later, whole.
      const later = readStash(stash);
      expect(later.slice(0, read.length)).toEqual(read);
      expect(later.length - read.length).toBeLessThanOrEqual(3);
      expect(Atomics.load(stash.words, STASH.busy)).toBe(0);
    }
  });
});
