import { describe, expect, it } from 'vitest';
import { CallDispatch, Quarantine } from './call-dispatch';
import { PoolCall } from './pool-call';
import type { CallOptions } from './pool-options';
import type { CallRequest } from './protocol';
import type { WorkerHandle } from './worker-handle';

interface FakeWorker {
  name: string;
  sent: CallRequest[];
  send(request: CallRequest): void;
}

const fake = (name: string): FakeWorker => ({
  name,
  sent: [],
  send(request) {
    this.sent.push(request);
  },
});

let nextId = 1;
function pending(name: string, options: CallOptions = {}): PoolCall {
  const id = nextId++;
  return new PoolCall(
    id,
    { id: `call_${id}`, name, args: { n: id } },
    options,
    1000,
    () => {},
    () => {},
  );
}

/**
 * A dispatch over fake workers: `shared` and `isolated` are handed out in turn by pick and
 * pickIsolated (undefined once used up: every worker is full).
 */
function setup(shared: FakeWorker[], isolated: FakeWorker[] = []) {
  const quarantine = new Quarantine(60_000);
  const dispatched: [string, boolean][] = [];
  const freeShared = [...shared];
  const freeIsolated = [...isolated];
  const dispatch = new CallDispatch({
    workers: {
      pick: () => freeShared.shift(),
      pickIsolated: () => freeIsolated.shift(),
    } as unknown as ConstructorParameters<typeof CallDispatch>[0]['workers'],
    quarantine,
    stateFor: (name, state) => (name === 'picky' ? { only: (state as { only: unknown }).only } : state),
    dispatched: (worker, isolatedWorker) => dispatched.push([(worker as unknown as FakeWorker).name, isolatedWorker]),
  });
  return {
    dispatch,
    quarantine,
    dispatched,
    free: (w: FakeWorker, isolatedWorker = false) => (isolatedWorker ? freeIsolated : freeShared).push(w),
  };
}

describe('CallDispatch', () => {
  it('sends waiting calls in order to workers with room, and keeps the rest waiting', () => {
    const [a, b] = [fake('a'), fake('b')];
    const { dispatch, dispatched } = setup([a, b]);
    const calls = [pending('add'), pending('add'), pending('add')];
    for (const call of calls) dispatch.push(call);
    dispatch.pump();
    expect(a.sent.map((r) => r.id)).toEqual([calls[0]?.id]);
    expect(b.sent.map((r) => r.id)).toEqual([calls[1]?.id]);
    expect(calls[0]?.worker).toBe(a as unknown as WorkerHandle);
    expect(dispatched).toEqual([
      ['a', false],
      ['b', false],
    ]);
    expect(dispatch.queued).toBe(1);
    expect(dispatch.waiting).toBe(true);
  });

  it("sends a call's id, name and arguments, and its extras only when it has them", () => {
    const w = fake('w');
    const { dispatch } = setup([w, w]);
    const bare = pending('add');
    const full = pending('picky', { state: { only: 1, secret: 2 }, context: { user: 'u' }, resultFormat: 'json' });
    dispatch.push(bare);
    dispatch.push(full);
    dispatch.pump();
    expect(w.sent[0]).toEqual({ id: bare.id, toolCallId: bare.toolCall.id, name: 'add', args: bare.toolCall.args });
    expect(Object.keys(w.sent[0] ?? {})).toEqual(['id', 'toolCallId', 'name', 'args']);
    // The state as the tool declared it (stateFor), not the caller's whole state.
    expect(w.sent[1]).toMatchObject({ state: { only: 1 }, context: { user: 'u' }, resultFormat: 'json' });
  });

  it('drops a call settled while it waited', () => {
    const w = fake('w');
    const { dispatch } = setup([w]);
    const [gone, kept] = [pending('add'), pending('add')];
    dispatch.push(gone);
    dispatch.push(kept);
    gone.settle(new Error('aborted'));
    dispatch.pump();
    expect(w.sent.map((r) => r.id)).toEqual([kept.id]);
    expect(dispatch.waiting).toBe(false);
  });

  it("runs a quarantined tool's calls on isolated workers, one each, without holding up the others", () => {
    const [s, i1] = [fake('s'), fake('i1')];
    const { dispatch, quarantine, dispatched, free } = setup([s], [i1]);
    quarantine.add('spin');
    const calls = [pending('spin'), pending('spin'), pending('add')];
    for (const call of calls) dispatch.push(call);
    dispatch.pump();
    expect(i1.sent.map((r) => r.id)).toEqual([calls[0]?.id]);
    expect(s.sent.map((r) => r.id)).toEqual([calls[2]?.id]);
    expect(dispatched).toContainEqual(['i1', true]);
    // The second waits for an isolated worker, not for a shared one; it is not counted as queued.
    expect(dispatch.queued).toBe(0);
    expect(dispatch.waiting).toBe(true);
    const i2 = fake('i2');
    free(i2, true);
    dispatch.pump();
    expect(i2.sent.map((r) => r.id)).toEqual([calls[1]?.id]);
    expect(dispatch.waiting).toBe(false);
  });

  it('puts re-sent calls before everything waiting, and gives up what waits on takeQueued', () => {
    const { dispatch } = setup([]);
    const [later, settled, first, second] = [pending('add'), pending('add'), pending('add'), pending('add')];
    dispatch.push(later);
    dispatch.push(settled);
    settled.settle(new Error('aborted'));
    dispatch.pushFront([first, second]);
    dispatch.pump(); // no worker has room
    expect(dispatch.takeQueued()).toEqual([first, second, later]);
    expect(dispatch.queued).toBe(0);
  });
});
