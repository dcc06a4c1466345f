import { describe, expect, it } from 'vitest';
import { type RosterWorker, WorkerRoster } from './worker-roster';

interface Fake extends RosterWorker {
  n: number;
  dead: boolean;
  retiring: boolean;
  load: number;
}

/** A roster over fake workers, numbered as they start; `failing()` makes the next starts throw. */
function roster(size: number, concurrency = 10, isolated = 1) {
  let started = 0;
  let fail = false;
  const r = new WorkerRoster<Fake>({ size, concurrency, isolated }, () => {
    if (fail) throw new Error('factory failed');
    return { n: ++started, dead: false, retiring: false, load: 0 };
  });
  return {
    r,
    failing: () => {
      fail = true;
    },
  };
}

describe('WorkerRoster', () => {
  it('starts a worker for the first call, and another only when every one has calls', () => {
    const { r } = roster(3);
    const first = r.pick() as Fake;
    expect(first.n).toBe(1);
    expect(r.pick()).toBe(first); // idle: no new worker
    first.load = 1;
    const second = r.pick() as Fake;
    expect(second.n).toBe(2);
    second.load = 1;
    expect((r.pick() as Fake).n).toBe(3);
    expect(r.shared).toHaveLength(3);
  });

  it('gives the call to the least-loaded worker in service with room, once the roster is full', () => {
    const { r } = roster(3, 4);
    const [a, b, c] = r.fill();
    Object.assign(a as Fake, { load: 2 });
    Object.assign(b as Fake, { load: 1, retiring: true });
    Object.assign(c as Fake, { load: 3 });
    expect(r.pick()).toBe(a);
    Object.assign(a as Fake, { load: 4 }); // full
    expect(r.pick()).toBe(c);
    Object.assign(c as Fake, { dead: true });
    expect(r.pick()).toBeUndefined(); // nothing with room, and no room for another worker
  });

  it('falls back on a busy worker when a new one cannot start', () => {
    const { r, failing } = roster(2);
    const a = r.pick() as Fake;
    a.load = 1;
    failing();
    expect(r.pick()).toBe(a);
    expect(r.shared).toEqual([a]);
  });

  it('runs quarantined calls on isolated workers, one call each, up to the limit', () => {
    const { r } = roster(1, 10, 2);
    const x = r.pickIsolated() as Fake;
    expect(r.isolated).toEqual([x]);
    expect(r.shared).toEqual([]);
    x.load = 1;
    const y = r.pickIsolated() as Fake;
    expect(y).not.toBe(x);
    y.load = 1;
    expect(r.pickIsolated()).toBeUndefined();
    x.load = 0;
    expect(r.pickIsolated()).toBe(x);
  });

  it('takes a worker out of service, says whether it was isolated, and may then be short', () => {
    const { r } = roster(2);
    const [a] = r.fill();
    const x = r.pickIsolated() as Fake;
    expect(r.short).toBe(false);
    expect(r.remove(a as Fake)).toBe(false);
    expect(r.short).toBe(true);
    expect(r.remove(x)).toBe(true);
    expect(r.all()).toHaveLength(1);
  });

  it('counts the shared workers in service, and asks an idle one first', () => {
    const { r } = roster(3);
    const [a, b, c] = r.fill() as Fake[];
    Object.assign(a as Fake, { load: 2 });
    Object.assign(b as Fake, { load: 0 });
    Object.assign(c as Fake, { load: 5, retiring: true });
    expect(r.counts()).toEqual({ workers: 2, busy: 1, running: 2 });
    expect(r.any()).toBe(b);
    expect(r.alive).toBe(true);
    for (const w of r.clear()) (w as Fake).dead = true;
    expect(r.alive).toBe(false);
    expect(r.any().n).toBe(4); // none left: a new one
  });
});
